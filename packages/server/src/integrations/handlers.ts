import { type AccessMap, type AreaHandlers, anyCaller } from "../area.js";
import type { Caller } from "../auth/caller.js";
import { toJson } from "../db/codecs.js";
import type { Transaction } from "../db/database.js";
import { recordEvent } from "../events/record.js";
import { badRequest, conflict, forbidden, notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { organizationForCaller } from "../organizations/index.js";
import { authorize } from "../policy.js";
import type { Services } from "../services.js";
import { onInstallation, onIntegration } from "./access.js";
import { accountSchemaOf, statusOf, validConfiguration } from "./configuration.js";
import {
  generateSigningSecret,
  integrationEventOf,
  listIntegrationEvents,
  presentIntegrationEvent,
  revealSigningSecret,
  sealSigningSecret,
  traceOf,
} from "./events.js";
import {
  canListInstallations,
  canManageInstallations,
  canManageIntegration,
  canViewInstallation,
  installableInto,
} from "./policy.js";
import { type IntegrationOwner, presentInstallationOf, presentIntegration } from "./presenter.js";
import { publicationOf } from "./publication.js";
import { encryptSecrets } from "./secrets.js";
import {
  accessOf,
  deleteInstallation,
  deleteIntegration,
  getInstallation,
  insertInstallation,
  installationOn,
  integrationNamed,
  listInstallations,
  listIntegrations,
  organizationsById,
  publisherForCaller,
  storePublication,
  updateInstallation,
} from "./store.js";
import type { InstallationTable, IntegrationTable } from "./tables.js";

/** `text` as a LIKE pattern matching it anywhere, with `\` escaping LIKE's own characters. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

const booleanFilter = (value: boolean | undefined): "true" | "false" | null =>
  value === undefined ? null : value ? "true" : "false";

const managesInstallation = (action: string) =>
  onInstallation(action, ({ membership }) => canManageInstallations(membership));

export const integrationAccess = {
  listIntegrations: anyCaller,
  getIntegrationByName: onIntegration("see this integration"),
  // The name may be new: the organization to publish for is in the body, and the handler checks it.
  publishIntegration: anyCaller,
  unpublishIntegration: onIntegration("unpublish this integration", ({ ownerMembership }) =>
    canManageIntegration(ownerMembership),
  ),
  listIntegrationEvents: onIntegration("see this integration's events", ({ ownerMembership }) =>
    canManageIntegration(ownerMembership),
  ),
  getIntegrationEvent: onIntegration("see this integration's events", ({ ownerMembership }) =>
    canManageIntegration(ownerMembership),
  ),
  listIntegrationInstallations: onIntegration(
    "see installations: you administer no organization",
    canListInstallations,
  ),
  // The organization to install into is in the body: the handler checks the caller's role there.
  installIntegration: onIntegration("install this integration"),
  getIntegrationInstallationById: onInstallation("see this installation", canViewInstallation),
  updateIntegrationInstallation: managesInstallation("configure this installation"),
  uninstallIntegration: managesInstallation("uninstall this integration"),
} satisfies AccessMap;

export function integrationHandlers(services: Services): AreaHandlers<typeof integrationAccess> {
  const { db, urls, ids, now, secretKey, transaction } = services;
  /** The owners of integrations, each with whether the caller owns one of its teams. */
  const ownersOf = async (organizationIds: readonly string[], callerId: string) => {
    const owners = await organizationsById(db, organizationIds, callerId);
    // The foreign key keeps every owner.
    return ({ owner_organization_id: id }: Pick<IntegrationTable, "owner_organization_id">) =>
      owners.get(id) as IntegrationOwner;
  };

  /** Records that `caller` installed, configured or uninstalled the integration `name` in an organization. */
  const recordInstallationEvent = (
    tx: Transaction,
    caller: Caller,
    type: "installation_setup" | "installation_deleted",
    name: string,
    installation: Pick<InstallationTable, "id" | "organization_id">,
  ) =>
    recordEvent(tx, services, {
      organizationId: installation.organization_id,
      type,
      actorId: caller.user.id,
      data: { integration: name, installation: installation.id },
    });

  return {
    async listIntegrations({ query, caller }) {
      const filters = {
        userId: caller.user.id,
        search: query.search === undefined ? null : containing(query.search.toLowerCase()),
        // Categories are stored as a JSON array of enum values, none a part of another.
        category: query.category === undefined ? null : containing(toJson(query.category)),
        blockDomain: query.blockDomain?.toLowerCase() ?? null,
        blocks: booleanFilter(query.blocks),
        contentSources: booleanFilter(query.contentSources),
        owner: query.owner ?? null,
        // Scopes are stored as a JSON array of enum values, none a part of another.
        scope: query.scope === undefined ? null : containing(toJson(query.scope)),
        target: query.target ?? null,
      };
      const page = await listIntegrations(db, filters, query);
      const owners = await ownersOf(
        page.rows.map((row) => row.owner_organization_id),
        caller.user.id,
      );
      return ok(presentPage(page, (row) => presentIntegration(accessOf(row), owners(row), urls)));
    },

    async getIntegrationByName({ caller }, access) {
      const owners = await ownersOf([access.integration.owner_organization_id], caller.user.id);
      return ok(presentIntegration(access, owners(access.integration), urls));
    },

    async publishIntegration({ path, body, caller }) {
      // Declared for any caller: they must administer the organization the body names.
      const { organization, role, ownsTeam } = await publisherForCaller(
        db,
        body.organization,
        caller.user.id,
      );
      authorize(canManageIntegration(role), "publish integrations for this organization");
      const publication = publicationOf(body);
      const integration = await transaction(async (tx) => {
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
          signing_secret: sealSigningSecret(secretKey, id, generateSigningSecret()),
        };
        return storePublication(tx, identity, publication, existing, now());
      });
      // The publisher administers the owner, so may install the integration whatever its visibility.
      const access = { integration, ownerMembership: role, adminAnywhere: true };
      const signingSecret = revealSigningSecret(
        secretKey,
        integration.id,
        integration.signing_secret as string,
      );
      const owner = { row: organization, callerOwnsTeam: ownsTeam };
      return ok(presentIntegration(access, owner, urls, signingSecret));
    },

    async unpublishIntegration(_input, { integration }) {
      await deleteIntegration(db, integration.id);
      return noContent();
    },

    async listIntegrationEvents({ query }, { integration }) {
      const page = await listIntegrationEvents(db, { integrationId: integration.id }, query);
      return ok(presentPage(page, presentIntegrationEvent));
    },

    async getIntegrationEvent({ path }, { integration }) {
      const row = await integrationEventOf(db, integration.id, path.eventId);
      if (!row) throw notFound("Integration event");
      const trace = traceOf(row);
      return ok({ event: presentIntegrationEvent(row), ...(trace && { trace }) });
    },

    async listIntegrationInstallations({ path, query, caller }, access) {
      const args = {
        integrationId: access.integration.id,
        ownerOrganizationId: access.integration.owner_organization_id,
        userId: caller.user.id,
        externalId: query.externalId ?? null,
      };
      const page = await listInstallations(db, args, query);
      return ok(presentPage(page, presentInstallationOf(path.integrationName, urls)));
    },

    async installIntegration({ body, caller }, { integration }) {
      // The rule found the integration; the caller must administer the organization the body names.
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
        configuration: toJson(configuration),
        external_ids: toJson([]),
        created_at: now(),
        updated_at: now(),
      };
      await transaction(async (tx) => {
        await insertInstallation(tx, installation);
        await recordInstallationEvent(tx, caller, "installation_setup", integration.name, installation);
      });
      return created(presentInstallationOf(integration.name, urls)({ ...installation, spaces: 0 }));
    },

    async getIntegrationInstallationById({ path }, { installation }) {
      return ok(presentInstallationOf(path.integrationName, urls)(installation));
    },

    async updateIntegrationInstallation({ path, body, caller }, { installation, integration }) {
      const changes: Parameters<typeof updateInstallation>[2] = {
        ...(body.space_selection !== undefined && { space_selection: body.space_selection }),
        ...(body.site_selection !== undefined && { site_selection: body.site_selection }),
      };
      if (body.configuration !== undefined) {
        const schema = accountSchemaOf(integration.configurations);
        const configuration = validConfiguration(schema, body.configuration);
        changes.configuration = toJson(configuration);
        changes.status = statusOf(schema, configuration);
      }
      const { externalIds } = body;
      if (externalIds && new Set(externalIds).size !== externalIds.length)
        throw badRequest("externalIds must not repeat an id.");
      // An empty change writes nothing, so `updatedAt` moves only when something does.
      if (Object.keys(changes).length === 0 && externalIds === undefined)
        return ok(presentInstallationOf(path.integrationName, urls)(installation));
      await transaction(async (tx) => {
        await updateInstallation(tx, installation.id, changes, externalIds, now());
        await recordInstallationEvent(tx, caller, "installation_setup", integration.name, installation);
      });
      const updated = await getInstallation(db, installation.id);
      return ok(presentInstallationOf(path.integrationName, urls)(updated));
    },

    async uninstallIntegration({ path, caller }, { installation }) {
      await transaction(async (tx) => {
        await deleteInstallation(tx, installation.id);
        await recordInstallationEvent(tx, caller, "installation_deleted", path.integrationName, installation);
      });
      return noContent();
    },
  };
}
