import { badRequest, conflict, forbidden } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { type OrganizationRow, organizationForCaller } from "../organizations/index.js";
import { authorize } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { accountSchemaOf, statusOf, validConfiguration } from "./configuration.js";
import {
  canListInstallations,
  canManageInstallations,
  canManageIntegration,
  canViewInstallation,
  installableInto,
} from "./policy.js";
import { presentInstallationOf, presentIntegration } from "./presenter.js";
import { publicationOf } from "./publication.js";
import { encryptSecrets } from "./secrets.js";
import {
  accessOf,
  deleteInstallation,
  deleteIntegration,
  getInstallation,
  insertInstallation,
  installationForCaller,
  installationOn,
  integrationForCaller,
  integrationNamed,
  listInstallations,
  listIntegrations,
  organizationsById,
  publisherForCaller,
  storePublication,
  updateInstallation,
} from "./store.js";
import type { InstallationTable } from "./tables.js";

/** `text` as a LIKE pattern matching it anywhere, with `\` escaping LIKE's own characters. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

const booleanFilter = (value: boolean | undefined): "true" | "false" | null =>
  value === undefined ? null : value ? "true" : "false";

export function integrationHandlers(
  services: Services,
): AreaHandlers<
  | "listIntegrations"
  | "getIntegrationByName"
  | "publishIntegration"
  | "unpublishIntegration"
  | "listIntegrationInstallations"
  | "installIntegration"
  | "getIntegrationInstallationById"
  | "updateIntegrationInstallation"
  | "uninstallIntegration"
> {
  const { db, urls, ids, now, secretKey } = services;

  return {
    async listIntegrations({ query, caller }) {
      const filters = {
        userId: caller.user.id,
        search: query.search === undefined ? null : containing(query.search.toLowerCase()),
        // Categories are stored as a JSON array of enum values, none a part of another.
        category: query.category === undefined ? null : containing(JSON.stringify(query.category)),
        blockDomain: query.blockDomain?.toLowerCase() ?? null,
        blocks: booleanFilter(query.blocks),
        contentSources: booleanFilter(query.contentSources),
        owner: query.owner ?? null,
      };
      const page = await listIntegrations(db, filters, query);
      const owners = await organizationsById(
        db,
        page.rows.map((row) => row.owner_organization_id),
      );
      return ok(
        presentPage(page, (row) =>
          // The foreign key keeps every owner.
          presentIntegration(accessOf(row), owners.get(row.owner_organization_id) as OrganizationRow, urls),
        ),
      );
    },

    async getIntegrationByName({ path, caller }) {
      const access = await integrationForCaller(db, path.integrationName, caller.user.id);
      const owners = await organizationsById(db, [access.integration.owner_organization_id]);
      const owner = owners.get(access.integration.owner_organization_id) as OrganizationRow;
      return ok(presentIntegration(access, owner, urls));
    },

    async publishIntegration({ path, body, caller }) {
      const { organization, role } = await publisherForCaller(db, body.organization, caller.user.id);
      authorize(canManageIntegration(role), "publish integrations for this organization");
      const publication = publicationOf(body);
      const integration = await db.transaction().execute(async (tx) => {
        const existing = await integrationNamed(tx, path.integrationName);
        if (existing && existing.owner_organization_id !== organization.id)
          throw conflict(
            `The name ${path.integrationName} is taken by an integration of another organization.`,
            "name_taken",
          );
        const id = existing?.id ?? ids.next();
        const identity = {
          id,
          name: path.integrationName,
          owner_organization_id: organization.id,
          secrets: encryptSecrets(secretKey, id, body.secrets ?? {}),
        };
        return storePublication(tx, identity, publication, existing, now());
      });
      // The publisher administers the owner, so may install the integration whatever its visibility.
      const access = { integration, ownerMembership: role, adminAnywhere: true };
      return ok(presentIntegration(access, organization, urls));
    },

    async unpublishIntegration({ path, caller }) {
      const { integration, ownerMembership } = await integrationForCaller(
        db,
        path.integrationName,
        caller.user.id,
      );
      authorize(canManageIntegration(ownerMembership), "unpublish this integration");
      await deleteIntegration(db, integration.id);
      return noContent();
    },

    async listIntegrationInstallations({ path, query, caller }) {
      const access = await integrationForCaller(db, path.integrationName, caller.user.id);
      authorize(canListInstallations(access), "see installations: you administer no organization");
      const args = {
        integrationId: access.integration.id,
        ownerOrganizationId: access.integration.owner_organization_id,
        userId: caller.user.id,
        externalId: query.externalId ?? null,
      };
      const page = await listInstallations(db, args, query);
      return ok(presentPage(page, presentInstallationOf(path.integrationName, urls)));
    },

    async installIntegration({ path, body, caller }) {
      const { integration } = await integrationForCaller(db, path.integrationName, caller.user.id);
      const { organization, role } = await organizationForCaller(db, body.organization, caller.user.id);
      authorize(canManageInstallations(role), "install integrations on this organization");
      if (!installableInto(integration, organization.id))
        throw forbidden("This integration is private: only its own organization can install it.");
      if (await installationOn(db, integration.id, organization.id))
        throw conflict("The integration is already installed on this organization.", "already_done");
      const schema = accountSchemaOf(integration.configurations);
      const configuration = validConfiguration(schema, {});
      const installation: InstallationTable = {
        id: ids.next(),
        integration_id: integration.id,
        organization_id: organization.id,
        status: statusOf(schema, configuration),
        // Nothing is covered until the organization chooses.
        space_selection: "selected",
        site_selection: "selected",
        configuration: JSON.stringify(configuration),
        external_ids: "[]",
        created_at: now(),
        updated_at: now(),
      };
      await insertInstallation(db, installation);
      return created(presentInstallationOf(integration.name, urls)({ ...installation, spaces: 0 }));
    },

    async getIntegrationInstallationById({ path, caller }) {
      const access = await installationForCaller(
        db,
        path.integrationName,
        path.installationId,
        caller.user.id,
      );
      authorize(canViewInstallation(access), "see this installation");
      return ok(presentInstallationOf(path.integrationName, urls)(access.installation));
    },

    async updateIntegrationInstallation({ path, body, caller }) {
      const { installation, integration, membership } = await installationForCaller(
        db,
        path.integrationName,
        path.installationId,
        caller.user.id,
      );
      authorize(canManageInstallations(membership), "configure this installation");
      const changes: Parameters<typeof updateInstallation>[2] = {
        ...(body.space_selection !== undefined && { space_selection: body.space_selection }),
        ...(body.site_selection !== undefined && { site_selection: body.site_selection }),
      };
      if (body.configuration !== undefined) {
        const schema = accountSchemaOf(integration.configurations);
        const configuration = validConfiguration(schema, body.configuration);
        changes.configuration = JSON.stringify(configuration);
        changes.status = statusOf(schema, configuration);
      }
      const { externalIds } = body;
      if (externalIds && new Set(externalIds).size !== externalIds.length)
        throw badRequest("externalIds must not repeat an id.");
      // An empty change writes nothing, so `updatedAt` moves only when something does.
      if (Object.keys(changes).length === 0 && externalIds === undefined)
        return ok(presentInstallationOf(path.integrationName, urls)(installation));
      await db
        .transaction()
        .execute((tx) => updateInstallation(tx, installation.id, changes, externalIds, now()));
      const updated = await getInstallation(db, installation.id);
      return ok(presentInstallationOf(path.integrationName, urls)(updated));
    },

    async uninstallIntegration({ path, caller }) {
      const { installation, membership } = await installationForCaller(
        db,
        path.integrationName,
        path.installationId,
        caller.user.id,
      );
      authorize(canManageInstallations(membership), "uninstall this integration");
      await deleteInstallation(db, installation.id);
      return noContent();
    },
  };
}
