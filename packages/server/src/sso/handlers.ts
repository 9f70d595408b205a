import { X509Certificate } from "node:crypto";
import type { Schema } from "@quire/api-types";
import { membershipOf } from "../access.js";
import { type AccessMap, type AreaHandlers, anyCaller } from "../area.js";
import { ssoProviderLogins } from "../commands/sso-sign-in.js";
import type { Db } from "../db/database.js";
import { recordEvent } from "../events/record.js";
import { badRequest } from "../http/errors.js";
import { created, noContent, ok } from "../http/results.js";
import { onOrganization, presentOrganization } from "../organizations/index.js";
import type { OrganizationRole } from "../policy.js";
import type { Services } from "../services.js";
import { onSamlProvider } from "./access.js";
import { canManageSso } from "./policy.js";
import { presentSamlProvider } from "./presenter.js";
import {
  defaultTeamsOf,
  deleteProvider,
  insertProvider,
  listProviders,
  organizationsForDomain,
  teamInOrganization,
  updateProvider,
} from "./store.js";
import type { SamlProviderTable } from "./tables.js";

const MANAGE = "manage single sign-on for this organization";

type ProviderFields = Schema<"UpdateSamlProviderRequest">;

/** The stored columns of the fields given, once each is valid: 400 otherwise. */
async function checkedFields(db: Db, organizationId: string, body: ProviderFields) {
  if (body.certificate !== undefined) {
    try {
      new X509Certificate(body.certificate);
    } catch {
      throw badRequest("`certificate` is not a PEM-encoded X.509 certificate.");
    }
  }
  if (body.defaultTeam !== undefined && !(await teamInOrganization(db, organizationId, body.defaultTeam)))
    throw badRequest("`defaultTeam` is not a team of this organization.");
  return {
    ...(body.label !== undefined && { label: body.label }),
    ...(body.entityID !== undefined && { entity_id: body.entityID }),
    ...(body.certificate !== undefined && { certificate: body.certificate }),
    ...(body.ssoURL !== undefined && { sso_url: body.ssoURL }),
    ...(body.defaultTeam !== undefined && { default_team_id: body.defaultTeam }),
    ...(body.defaultRole !== undefined && { default_role: body.defaultRole }),
  } satisfies Partial<SamlProviderTable>;
}

/** The name in `SamlProvider` of each stored column, for the `changes` of `saml_provider_updated`. */
const FIELDS = {
  label: "label",
  entity_id: "entityID",
  certificate: "certificate",
  sso_url: "ssoURL",
  default_team_id: "defaultTeam",
  default_role: "defaultRole",
} as const;

const managesSso = onOrganization(MANAGE, ({ role }) => canManageSso(role));
const managesProvider = onSamlProvider(MANAGE, ({ role }) => canManageSso(role));

export const ssoAccess = {
  // Any caller: for a domain not their own, the handler lists only the organizations they are in.
  getOrganizationsForEmailDomain: anyCaller,
  listSAMLProvidersInOrganizationById: managesSso,
  createOrganizationSAMLProvider: managesSso,
  getOrganizationSAMLProviderById: managesProvider,
  updateOrganizationSAMLProvider: managesProvider,
  deleteOrganizationSAMLProvider: managesProvider,
  // Members only (guests too), like every organization id: others learn nothing from it.
  listSSOProviderLoginsInOrganization: onOrganization("see how members sign in to this organization"),
} satisfies AccessMap;

export function ssoHandlers(services: Services): AreaHandlers<typeof ssoAccess> {
  const { db, urls, ids, now, transaction } = services;

  /** Providers as the API shows them to a caller with `role`, their default teams read at once. */
  const present = async (rows: readonly SamlProviderTable[], role: OrganizationRole, callerId: string) => {
    const teams = await defaultTeamsOf(db, rows, callerId);
    return rows.map((row) =>
      presentSamlProvider(row, row.default_team_id ? teams.get(row.default_team_id) : undefined, role, urls),
    );
  };
  const presentOne = async (row: SamlProviderTable, role: OrganizationRole, callerId: string) => {
    const teams = await defaultTeamsOf(db, [row], callerId);
    return presentSamlProvider(
      row,
      row.default_team_id ? teams.get(row.default_team_id) : undefined,
      role,
      urls,
    );
  };

  return {
    async getOrganizationsForEmailDomain({ path, caller }) {
      const domain = path.emailDomain.trim().toLowerCase();
      const own = caller.user.email.slice(caller.user.email.lastIndexOf("@") + 1);
      // Other domains list only the caller's own organizations, so that names of others stay hidden;
      // a domain that shows none answers an empty list, as GitBook's contract has only 200.
      const rows = await organizationsForDomain(db, domain, caller.user.id, domain === own);
      return ok({
        organizations: rows.map(({ caller_membership, caller_owns_team, ...row }) =>
          // A non-member is shown what a guest would be: no power in the organization.
          presentOrganization(
            row,
            { role: membershipOf(caller_membership) ?? null, ownsTeam: Boolean(caller_owns_team) },
            urls,
          ),
        ),
      });
    },

    async listSAMLProvidersInOrganizationById({ path, query, caller }, { role }) {
      const args = { organizationId: path.organizationId, callerId: caller.user.id };
      const page = await listProviders(db, args, query);
      const items = await present(page.rows, role, caller.user.id);
      return ok({ count: page.count, items, ...(page.next && { next: page.next }) });
    },

    async createOrganizationSAMLProvider({ body, caller }, { organization, role }) {
      const fields = await checkedFields(db, organization.id, body);
      const row: SamlProviderTable = {
        id: ids.next(),
        organization_id: organization.id,
        label: body.label,
        entity_id: null,
        certificate: null,
        sso_url: null,
        default_team_id: null,
        default_role: organization.default_role,
        created_at: now(),
        ...fields,
      };
      await transaction(async (tx) => {
        await insertProvider(tx, row);
        await recordEvent(tx, services, {
          organizationId: organization.id,
          type: "saml_provider_created",
          data: { provider: row.id, label: row.label },
          actorId: caller.user.id,
        });
      });
      return created(await presentOne(row, role, caller.user.id));
    },

    async getOrganizationSAMLProviderById({ caller }, { provider, role }) {
      return ok(await presentOne(provider, role, caller.user.id));
    },

    async updateOrganizationSAMLProvider({ body, caller }, { provider, role }) {
      const changes = await checkedFields(db, provider.organization_id, body);
      const changed = (Object.keys(changes) as (keyof typeof changes)[]).filter(
        (column) => changes[column] !== provider[column],
      );
      const updated = { ...provider, ...changes };
      if (changed.length > 0)
        await transaction(async (tx) => {
          await updateProvider(tx, provider.id, changes);
          await recordEvent(tx, services, {
            organizationId: provider.organization_id,
            type: "saml_provider_updated",
            data: { provider: provider.id, label: updated.label, changes: changed.map((c) => FIELDS[c]) },
            actorId: caller.user.id,
          });
        });
      return ok(await presentOne(updated, role, caller.user.id));
    },

    async deleteOrganizationSAMLProvider({ caller }, { provider }) {
      await transaction(async (tx) => {
        await deleteProvider(tx, provider.id);
        await recordEvent(tx, services, {
          organizationId: provider.organization_id,
          type: "saml_provider_deleted",
          data: { provider: provider.id, label: provider.label },
          actorId: caller.user.id,
        });
      });
      return noContent();
    },

    async listSSOProviderLoginsInOrganization(_input, { organization }) {
      return ok({ items: await ssoProviderLogins(services, organization.id) });
    },
  };
}
