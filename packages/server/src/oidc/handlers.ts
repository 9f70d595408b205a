import type { Schema } from "@quire/api-types";
import type { AccessMap, AreaHandlers } from "../area.js";
import { toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { recordEvent } from "../events/record.js";
import { badRequest } from "../http/errors.js";
import { created, noContent, ok } from "../http/results.js";
import { onOrganization } from "../organizations/index.js";
import type { OrganizationRole } from "../policy.js";
import type { Services } from "../services.js";
import { defaultTeamsOf } from "../sso/index.js";
import { unknownIds } from "../teams/index.js";
import { onOidcProvider } from "./access.js";
import { sealClientSecret } from "./client-secret.js";
import { canManageOidc } from "./policy.js";
import { presentOidcProvider } from "./presenter.js";
import { deleteProvider, insertProvider, listProviders, updateProvider } from "./store.js";
import type { OidcProviderTable } from "./tables.js";

const MANAGE = "manage single sign-on for this organization";

/** What the providers Quire names (Keycloak, Authentik, Entra ID, Google) need for the email and name claims. */
const DEFAULT_SCOPES = ["openid", "email", "profile"];

/**
 * An issuer identifier as OpenID Connect Discovery defines it: http(s), no query, fragment or
 * credentials. Whether http may be used is the sign-in's concern (the network policy), not the API's.
 */
function checkedIssuer(issuer: string): string {
  const url = URL.parse(issuer);
  if (
    !url ||
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.search !== "" ||
    url.hash !== "" ||
    url.username !== "" ||
    url.password !== ""
  )
    throw badRequest("`issuer` must be an http or https URL without query, fragment or credentials.");
  return issuer;
}

function checkedScopes(scopes: readonly string[]): string[] {
  if (!scopes.includes("openid")) throw badRequest("`scopes` must include `openid`.");
  return [...new Set(scopes)];
}

/** The stored columns of the fields given (the secret sealed for `providerId`), once each is valid: 400 otherwise. */
async function checkedFields(
  { db, secretKey }: { db: Db; secretKey: string },
  organizationId: string,
  providerId: string,
  body: Schema<"UpdateOidcProviderRequest">,
) {
  if (
    body.defaultTeam !== undefined &&
    (await unknownIds(db, organizationId, "teams", [body.defaultTeam])).length > 0
  )
    throw badRequest("`defaultTeam` is not a team of this organization.");
  return {
    ...(body.label !== undefined && { label: body.label }),
    ...(body.issuer !== undefined && { issuer: checkedIssuer(body.issuer) }),
    ...(body.clientId !== undefined && { client_id: body.clientId }),
    ...(body.clientSecret !== undefined && {
      client_secret:
        body.clientSecret === null ? null : sealClientSecret(secretKey, providerId, body.clientSecret),
    }),
    ...(body.scopes !== undefined && { scopes: toJson(checkedScopes(body.scopes)) }),
    ...(body.defaultTeam !== undefined && { default_team_id: body.defaultTeam }),
    ...(body.defaultRole !== undefined && { default_role: body.defaultRole }),
  } satisfies Partial<OidcProviderTable>;
}

/**
 * The name in `OidcProvider` of each stored column, for the `changes` of `oidc_provider_updated`. A
 * client secret is sealed anew at every write: setting one counts as a change, its value never shows.
 */
const FIELDS = {
  label: "label",
  issuer: "issuer",
  client_id: "clientId",
  client_secret: "clientSecret",
  scopes: "scopes",
  default_team_id: "defaultTeam",
  default_role: "defaultRole",
} as const;

const managesSso = onOrganization(MANAGE, ({ role }) => canManageOidc(role));
const managesProvider = onOidcProvider(MANAGE, ({ role }) => canManageOidc(role));

export const oidcAccess = {
  listOrganizationOIDCProviders: managesSso,
  createOrganizationOIDCProvider: managesSso,
  getOrganizationOIDCProviderById: managesProvider,
  updateOrganizationOIDCProvider: managesProvider,
  deleteOrganizationOIDCProvider: managesProvider,
} satisfies AccessMap;

export function oidcHandlers(services: Services): AreaHandlers<typeof oidcAccess> {
  const { db, urls, ids, now, transaction } = services;

  /** Providers as the API shows them to a caller with `role`, their default teams read at once. */
  const present = async (rows: readonly OidcProviderTable[], role: OrganizationRole, callerId: string) => {
    const teams = await defaultTeamsOf(db, rows, callerId);
    return rows.map((row) =>
      presentOidcProvider(row, row.default_team_id ? teams.get(row.default_team_id) : undefined, role, urls),
    );
  };
  const presentOne = async (row: OidcProviderTable, role: OrganizationRole, callerId: string) => {
    const [presented] = await present([row], role, callerId);
    return presented as Schema<"OidcProvider">;
  };

  return {
    async listOrganizationOIDCProviders({ path, query, caller }, { role }) {
      const args = { organizationId: path.organizationId, callerId: caller.user.id };
      const page = await listProviders(db, args, query);
      const items = await present(page.rows, role, caller.user.id);
      return ok({ count: page.count, items, ...(page.next && { next: page.next }) });
    },

    async createOrganizationOIDCProvider({ body, caller }, { organization, role }) {
      const id = ids.next();
      const fields = await checkedFields(services, organization.id, id, body);
      const row: OidcProviderTable = {
        id,
        organization_id: organization.id,
        label: body.label,
        issuer: checkedIssuer(body.issuer),
        client_id: body.clientId,
        client_secret: null,
        scopes: toJson(DEFAULT_SCOPES),
        default_team_id: null,
        default_role: organization.default_role,
        created_at: now(),
        ...fields,
      };
      await transaction(async (tx) => {
        await insertProvider(tx, row);
        await recordEvent(tx, services, {
          organizationId: organization.id,
          type: "oidc_provider_created",
          data: { provider: row.id, label: row.label },
          actorId: caller.user.id,
        });
      });
      return created(await presentOne(row, role, caller.user.id));
    },

    async getOrganizationOIDCProviderById({ caller }, { provider, role }) {
      return ok(await presentOne(provider, role, caller.user.id));
    },

    async updateOrganizationOIDCProvider({ body, caller }, { provider, role }) {
      const changes = await checkedFields(services, provider.organization_id, provider.id, body);
      const updated = { ...provider, ...changes };
      const changed = (Object.keys(FIELDS) as (keyof typeof FIELDS)[]).filter(
        (column) => column in changes && updated[column] !== provider[column],
      );
      if (changed.length > 0)
        await transaction(async (tx) => {
          await updateProvider(tx, provider.id, changes);
          await recordEvent(tx, services, {
            organizationId: provider.organization_id,
            type: "oidc_provider_updated",
            data: { provider: provider.id, label: updated.label, changes: changed.map((c) => FIELDS[c]) },
            actorId: caller.user.id,
          });
        });
      return ok(await presentOne(updated, role, caller.user.id));
    },

    async deleteOrganizationOIDCProvider({ caller }, { provider }) {
      await transaction(async (tx) => {
        await deleteProvider(tx, provider.id);
        await recordEvent(tx, services, {
          organizationId: provider.organization_id,
          type: "oidc_provider_deleted",
          data: { provider: provider.id, label: provider.label },
          actorId: caller.user.id,
        });
      });
      return noContent();
    },
  };
}
