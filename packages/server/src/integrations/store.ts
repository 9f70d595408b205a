import { type Expression, type SqlBool, sql } from "kysely";
import { callerMembership, callerOwnsTeam, membershipOf } from "../access.js";
import { type Flag, isSet, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { memberLookup } from "../db/member-lookup.js";
import { preparedRead } from "../db/prepared.js";
import { conflict, notFound } from "../http/errors.js";
import { keysetList } from "../http/paging.js";
import type { OrganizationRow } from "../organizations/index.js";
import type { Membership } from "../policy.js";
import { canSeeIntegration } from "./policy.js";
import type { Publication } from "./publication.js";
import type { InstallationTable, IntegrationTable } from "./tables.js";

/**
 * An integration as the caller sees it: their membership of its owner, and whether they administer
 * any organization.
 */
export interface IntegrationAccess {
  integration: IntegrationTable;
  ownerMembership: Membership;
  adminAnywhere: boolean;
}

/** The selected columns `accessOf` reads. */
interface AccessColumns {
  caller_membership: string | null;
  caller_admin_anywhere: Flag;
}

/** The caller's membership of the integration's owner (see `callerMembership`). */
const ownerMembership = (userId: string) =>
  callerMembership(userId, sql.ref("integrations.owner_organization_id"));

/** Set when the caller is an admin of some organization: the organizations they may install into. */
const adminAnywhere = (userId: string) =>
  sql<Flag>`case when exists (select 1 from memberships m
    where m.user_id = ${userId} and m.role = 'admin') then 1 else 0 end`.as("caller_admin_anywhere");

export function accessOf<Row extends IntegrationTable & AccessColumns>(found: Row): IntegrationAccess {
  const { caller_membership, caller_admin_anywhere, ...integration } = found;
  return {
    integration: integration as IntegrationTable,
    ownerMembership: membershipOf(caller_membership),
    adminAnywhere: isSet(caller_admin_anywhere),
  };
}

const integrationWithAccess = preparedRead((db, args: { name: string; userId: string }) =>
  db
    .selectFrom("integrations")
    .selectAll()
    .select(ownerMembership(args.userId).as("caller_membership"))
    .select(adminAnywhere(args.userId))
    .where("name", "=", args.name),
);

/**
 * The integration with the caller's access, in one statement; 404 when missing or private to an
 * organization the caller is not in.
 */
export async function integrationForCaller(db: Db, name: string, userId: string): Promise<IntegrationAccess> {
  const [found] = await integrationWithAccess(db, { name, userId });
  const access = found && accessOf(found);
  if (!access || !canSeeIntegration(access.integration.visibility, access.ownerMembership))
    throw notFound("Integration");
  return access;
}

/** `condition` when the filter `value` is given (not null); cast, as PostgreSQL must type the parameter. */
const optional = (value: string | null, condition: (value: string) => Expression<SqlBool>) =>
  sql<SqlBool>`(cast(${value} as text) is null or ${condition(value as string)})`;

/** `column <> '[]'` compared with a filter given as `"true"` or `"false"`. */
const hasItems = (column: string, wanted: string | null) =>
  optional(wanted, (w) => sql<SqlBool>`(${w} = 'true') = (${sql.ref(column)} <> '[]')`);

/** The filters of `listIntegrations`, each null when not given, as prepared statements take them. */
export type IntegrationFilters = {
  /** A LIKE pattern, lowercased and escaped with `\`. */
  search: string | null;
  /** A LIKE pattern matching the category's JSON string in `categories`. */
  category: string | null;
  blockDomain: string | null;
  blocks: "true" | "false" | null;
  contentSources: "true" | "false" | null;
  owner: string | null;
  /** A LIKE pattern matching the scope's JSON string in `scopes`. */
  scope: string | null;
  target: string | null;
};

/**
 * The integrations the caller can see, filtered, by name: public ones, and every one of an
 * organization they are in. Unlisted ones of other organizations are reached by name only.
 */
export const listIntegrations = keysetList(
  (db, args: IntegrationFilters & { userId: string }) =>
    db
      .selectFrom("integrations")
      .selectAll()
      .select(ownerMembership(args.userId).as("caller_membership"))
      .select(adminAnywhere(args.userId))
      .where(sql<SqlBool>`(visibility = 'public' or ${ownerMembership(args.userId)} is not null)`)
      .where(
        optional(
          args.search,
          (pattern) =>
            sql<SqlBool>`(lower(name) like ${pattern} escape '\\'
              or search_title like ${pattern} escape '\\')`,
        ),
      )
      .where(optional(args.category, (pattern) => sql<SqlBool>`categories like ${pattern}`))
      .where(
        optional(
          args.blockDomain,
          (domain) => sql<SqlBool>`exists (select 1 from integration_block_domains d
            where d.integration_id = integrations.id and d.domain = ${domain})`,
        ),
      )
      .where(hasItems("blocks", args.blocks))
      .where(hasItems("content_sources", args.contentSources))
      .where(optional(args.owner, (owner) => sql<SqlBool>`owner_organization_id = ${owner}`))
      .where(optional(args.scope, (pattern) => sql<SqlBool>`scopes like ${pattern}`))
      .where(optional(args.target, (target) => sql<SqlBool>`(target = ${target} or target = 'all')`)),
  { name: "string" },
);

/** The organizations with these ids, by id. */
export async function organizationsById(
  db: Db,
  ids: readonly string[],
  callerId: string,
): Promise<Map<string, { row: OrganizationRow; callerOwnsTeam: boolean }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("organizations")
    .selectAll()
    .select(callerOwnsTeam(callerId, sql.ref("organizations.id")).as("caller_owns_team"))
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Map(
    rows.map(({ caller_owns_team, ...row }) => [row.id, { row, callerOwnsTeam: Boolean(caller_owns_team) }]),
  );
}

/**
 * The organization named by its id or its hostname, with the caller's membership; 404 when there
 * is none or the caller is not in it. An id wins over another organization's equal hostname.
 */
export async function publisherForCaller(db: Db, idOrHostname: string, userId: string) {
  const rows = await db
    .selectFrom("organizations")
    .selectAll()
    .select(callerMembership(userId, sql.ref("organizations.id")).as("caller_membership"))
    .select(callerOwnsTeam(userId, sql.ref("organizations.id")).as("caller_owns_team"))
    .where((eb) => eb.or([eb("id", "=", idOrHostname), eb("hostname", "=", idOrHostname)]))
    .execute();
  const found = rows.find((row) => row.id === idOrHostname) ?? rows[0];
  const { row, role } = memberLookup(found, "Organization");
  const { caller_owns_team, ...organization } = row;
  return { organization, role, ownsTeam: Boolean(caller_owns_team) };
}

/** The integration of this name, whatever its visibility, to publish over it. */
export function integrationNamed(db: Db, name: string): Promise<IntegrationTable | undefined> {
  return db.selectFrom("integrations").selectAll().where("name", "=", name).executeTakeFirst();
}

/**
 * What a request to a public endpoint is forwarded with: the integration of this name and, for an
 * installation's endpoint, its installation of this id; undefined when either is not there.
 */
export async function endpointOf(
  db: Db,
  name: string,
  installationId?: string,
): Promise<
  | (Pick<IntegrationTable, "id" | "events_url" | "signing_secret" | "content_security_policy"> & {
      installation_id: string | null;
    })
  | undefined
> {
  const row = await db
    .selectFrom("integrations as g")
    .leftJoin("integration_installations as i", (join) =>
      join.onRef("i.integration_id", "=", "g.id").on("i.id", "=", installationId ?? null),
    )
    .select([
      "g.id",
      "g.events_url",
      "g.signing_secret",
      "g.content_security_policy",
      "i.id as installation_id",
    ])
    .where("g.name", "=", name)
    .executeTakeFirst();
  if (!row || (installationId !== undefined && row.installation_id === null)) return undefined;
  return row;
}

/**
 * Stores a new integration, or replaces the definition of `existing` and raises its version. Call
 * inside a transaction.
 */
export async function storePublication(
  db: Db,
  identity: Pick<IntegrationTable, "id" | "name" | "owner_organization_id" | "secrets" | "signing_secret">,
  publication: Publication,
  existing: IntegrationTable | undefined,
  now: string,
): Promise<IntegrationTable> {
  // The signing secret is the integration's for good: a new version keeps it.
  const row = {
    ...publication.fields,
    secrets: identity.secrets,
    signing_secret: existing?.signing_secret ?? identity.signing_secret,
    updated_at: now,
  };
  let stored: IntegrationTable;
  if (existing) {
    // `version + 1` in SQL, so that concurrent publications each raise it.
    const updated = await db
      .updateTable("integrations")
      .set({ ...row, version: sql<number>`version + 1` })
      .where("id", "=", existing.id)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw conflict("The integration was unpublished meanwhile; publish it again.");
    stored = updated;
    await db.deleteFrom("integration_images").where("integration_id", "=", existing.id).execute();
    await db.deleteFrom("integration_block_domains").where("integration_id", "=", existing.id).execute();
  } else {
    stored = { ...identity, ...row, version: 1, verified: 0, created_at: now };
    await db.insertInto("integrations").values(stored).execute();
  }
  const images = publication.images.map((image) => ({ integration_id: stored.id, ...image }));
  if (images.length > 0) await db.insertInto("integration_images").values(images).execute();
  const domains = publication.domains.map((domain) => ({ integration_id: stored.id, domain }));
  if (domains.length > 0) await db.insertInto("integration_block_domains").values(domains).execute();
  return stored;
}

/** Unpublishes: its images, domains and installations go by cascade. */
export async function deleteIntegration(db: Db, id: string): Promise<void> {
  await db.deleteFrom("integrations").where("id", "=", id).execute();
}

/** An installation with the number of spaces it manages. */
export type InstallationRow = InstallationTable & { spaces: number | string };

/**
 * Spaces an installation manages: every live space of its organization when it covers all of them;
 * Quire has no operation that selects single spaces, so a selection manages none.
 */
const spacesManaged = sql<number | string>`case when integration_installations.space_selection = 'all'
  then (select count(*) from spaces s
    where s.organization_id = integration_installations.organization_id and s.deleted_at is null)
  else 0 end`.as("spaces");

/**
 * The installations of an integration the caller may see, by id: all of them for an admin of the
 * integration's owner, those of organizations they administer for anyone else.
 */
export const listInstallations = keysetList(
  (
    db,
    args: { integrationId: string; ownerOrganizationId: string; userId: string; externalId: string | null },
  ) =>
    db
      .selectFrom("integration_installations")
      .selectAll()
      .select(spacesManaged)
      .where("integration_id", "=", args.integrationId)
      .where(
        sql<SqlBool>`exists (select 1 from memberships m where m.user_id = ${args.userId} and m.role = 'admin'
          and (m.organization_id = integration_installations.organization_id
            or m.organization_id = ${args.ownerOrganizationId}))`,
      )
      .where(
        optional(
          args.externalId,
          (externalId) => sql<SqlBool>`exists (select 1 from integration_installation_external_ids e
            where e.installation_id = integration_installations.id and e.external_id = ${externalId})`,
        ),
      ),
  { id: "string" },
);

/** An installation as the caller sees it: their memberships of the installing and the owning organization. */
export interface InstallationAccess {
  installation: InstallationRow;
  integration: Pick<IntegrationTable, "name" | "configurations">;
  membership: Membership;
  ownerMembership: Membership;
}

const installationWithAccess = preparedRead(
  (db, args: { integrationName: string; installationId: string; userId: string }) =>
    db
      .selectFrom("integration_installations")
      .innerJoin("integrations", "integrations.id", "integration_installations.integration_id")
      .selectAll("integration_installations")
      .select(spacesManaged)
      .select(["integrations.name", "integrations.configurations"])
      .select(
        callerMembership(args.userId, sql.ref("integration_installations.organization_id")).as(
          "caller_membership",
        ),
      )
      .select(ownerMembership(args.userId).as("owner_membership"))
      .where("integration_installations.id", "=", args.installationId)
      .where("integrations.name", "=", args.integrationName),
);

/**
 * The installation with the caller's memberships, in one statement; 404 when missing, of another
 * integration, or visible neither as an admin of the owner nor as a member of the installing organization.
 */
export async function installationForCaller(
  db: Db,
  integrationName: string,
  installationId: string,
  userId: string,
): Promise<InstallationAccess> {
  const [found] = await installationWithAccess(db, { integrationName, installationId, userId });
  if (!found) throw notFound("Installation");
  const { name, configurations, caller_membership, owner_membership, ...installation } = found;
  const access = {
    installation,
    integration: { name, configurations },
    membership: membershipOf(caller_membership),
    ownerMembership: membershipOf(owner_membership),
  };
  if (access.membership === undefined && access.ownerMembership !== "admin") throw notFound("Installation");
  return access;
}

/** The installation of an integration on an organization, if there is one. */
export function installationOn(db: Db, integrationId: string, organizationId: string) {
  return db
    .selectFrom("integration_installations")
    .select("id")
    .where("integration_id", "=", integrationId)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
}

export function getInstallation(db: Db, id: string): Promise<InstallationRow> {
  return db
    .selectFrom("integration_installations")
    .selectAll()
    .select(spacesManaged)
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

export async function insertInstallation(db: Db, row: InstallationTable): Promise<void> {
  await db.insertInto("integration_installations").values(row).execute();
}

/** Applies `changes`; new external ids replace the old ones, in their table too. Call in a transaction. */
export async function updateInstallation(
  db: Db,
  id: string,
  changes: Partial<
    Pick<InstallationTable, "status" | "space_selection" | "site_selection" | "configuration">
  >,
  externalIds: string[] | undefined,
  now: string,
): Promise<void> {
  await db
    .updateTable("integration_installations")
    .set({
      ...changes,
      ...(externalIds && { external_ids: toJson(externalIds) }),
      updated_at: now,
    })
    .where("id", "=", id)
    .execute();
  if (!externalIds) return;
  await db.deleteFrom("integration_installation_external_ids").where("installation_id", "=", id).execute();
  if (externalIds.length > 0)
    await db
      .insertInto("integration_installation_external_ids")
      .values(externalIds.map((externalId) => ({ installation_id: id, external_id: externalId })))
      .execute();
}

export async function deleteInstallation(db: Db, id: string): Promise<void> {
  await db.deleteFrom("integration_installations").where("id", "=", id).execute();
}
