import { X509Certificate } from "node:crypto";
import type { Schema } from "@quire/api-types";
import { membershipOf, membershipOfPage } from "../access.js";
import type { Db } from "../db/database.js";
import { badRequest } from "../http/errors.js";
import { created, noContent, ok } from "../http/results.js";
import { organizationForCaller, organizationRoleOf, presentOrganization } from "../organizations/index.js";
import { authorize, type OrganizationRole } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { canManageSso } from "./policy.js";
import { presentSamlProvider, samlServiceUrls } from "./presenter.js";
import {
  activeProviders,
  defaultTeamsOf,
  deleteProvider,
  insertProvider,
  listProviders,
  organizationsForDomain,
  providerForCaller,
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

export function ssoHandlers(
  services: Services,
): AreaHandlers<
  | "getOrganizationsForEmailDomain"
  | "listSAMLProvidersInOrganizationById"
  | "createOrganizationSAMLProvider"
  | "getOrganizationSAMLProviderById"
  | "updateOrganizationSAMLProvider"
  | "deleteOrganizationSAMLProvider"
  | "listSSOProviderLoginsInOrganization"
> {
  const { db, urls, ids, now } = services;

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
  const managedProvider = async (
    path: { organizationId: string; samlProviderId: string },
    callerId: string,
  ) => {
    const found = await providerForCaller(db, {
      organizationId: path.organizationId,
      providerId: path.samlProviderId,
      callerId,
    });
    authorize(canManageSso(found.callerRole), MANAGE);
    return { provider: found.provider, role: found.callerRole ?? null };
  };

  return {
    async getOrganizationsForEmailDomain({ path, caller }) {
      const domain = path.emailDomain.trim().toLowerCase();
      const own = caller.user.email.slice(caller.user.email.lastIndexOf("@") + 1);
      // Other domains list only the caller's own organizations, so that names of others stay hidden;
      // a domain that shows none answers an empty list, as GitBook's contract has only 200.
      const rows = await organizationsForDomain(db, domain, caller.user.id, domain === own);
      return ok({
        organizations: rows.map(({ caller_membership, ...row }) =>
          // A non-member is shown what a guest would be: no power in the organization.
          presentOrganization(row, membershipOf(caller_membership) ?? null, urls),
        ),
      });
    },

    async listSAMLProvidersInOrganizationById({ path, query, caller }) {
      const args = { organizationId: path.organizationId, callerId: caller.user.id };
      const page = await listProviders(db, args, query);
      const role = await membershipOfPage(page, () =>
        organizationRoleOf(db, { organizationId: path.organizationId, userId: caller.user.id }),
      );
      authorize(canManageSso(role), MANAGE);
      const items = await present(page.rows, role, caller.user.id);
      return ok({ count: page.count, items, ...(page.next && { next: page.next }) });
    },

    async createOrganizationSAMLProvider({ path, body, caller }) {
      const { organization, role } = await organizationForCaller(db, path.organizationId, caller.user.id);
      authorize(canManageSso(role), MANAGE);
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
      await insertProvider(db, row);
      return created(await presentOne(row, role, caller.user.id));
    },

    async getOrganizationSAMLProviderById({ path, caller }) {
      const { provider, role } = await managedProvider(path, caller.user.id);
      return ok(await presentOne(provider, role, caller.user.id));
    },

    async updateOrganizationSAMLProvider({ path, body, caller }) {
      const { provider, role } = await managedProvider(path, caller.user.id);
      const changes = await checkedFields(db, provider.organization_id, body);
      await updateProvider(db, provider.id, changes);
      return ok(await presentOne({ ...provider, ...changes }, role, caller.user.id));
    },

    async deleteOrganizationSAMLProvider({ path, caller }) {
      const { provider } = await managedProvider(path, caller.user.id);
      await deleteProvider(db, provider.id);
      return noContent();
    },

    async listSSOProviderLoginsInOrganization({ path, caller }) {
      // Members only (guests too), like every organization id: others learn nothing from it.
      await organizationRoleOf(db, { organizationId: path.organizationId, userId: caller.user.id });
      const rows = await activeProviders(db, path.organizationId);
      return ok({
        items: rows.map((row) => ({
          id: row.id,
          label: row.label,
          startURL: samlServiceUrls(urls, row.id).startURL,
        })),
      });
    },
  };
}
