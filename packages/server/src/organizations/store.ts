import { sql } from "kysely";
import { callerMembership, callerOwnsTeam } from "../access.js";
import type { Clock, IdGenerator } from "../context.js";
import { timestamp, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { memberLookup } from "../db/member-lookup.js";
import { preparedRead } from "../db/prepared.js";
import type { OrganizationTable } from "../db/schema.js";
import { updateById } from "../db/update.js";
import { keysetList } from "../http/paging.js";
import type { Membership, OrganizationRole } from "../policy.js";

export type OrganizationRow = OrganizationTable;

export interface MemberOrganization {
  organization: OrganizationRow;
  role: OrganizationRole;
  /** The caller owns one of its teams. */
  ownsTeam: boolean;
}

const organizationWithMembership = preparedRead((db, args: { organizationId: string; userId: string }) =>
  db
    .selectFrom("organizations")
    .selectAll()
    .select(callerMembership(args.userId, sql.ref("organizations.id")).as("caller_membership"))
    .select(callerOwnsTeam(args.userId, sql.ref("organizations.id")).as("caller_owns_team"))
    .where("id", "=", args.organizationId),
);

/**
 * The organization with the caller's role in it, in one statement. Non-members get 404, like a
 * missing organization, so that ids of other organizations reveal nothing.
 */
export async function organizationForCaller(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<MemberOrganization> {
  const [found] = await organizationWithMembership(db, { organizationId, userId });
  const { row, role } = memberLookup(found, "Organization");
  const { caller_owns_team, ...organization } = row;
  return { organization, role, ownsTeam: Boolean(caller_owns_team) };
}

/** What the caller is in an organization (see `Membership`). */
export async function membershipIn(db: Db, organizationId: string, userId: string): Promise<Membership> {
  const row = await db
    .selectFrom("memberships")
    .select("role")
    .where("organization_id", "=", organizationId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.role;
}

/** The organization's merge rules as stored (null: none). */
export async function organizationMergeRules(
  db: Db,
  organizationId: string,
): Promise<OrganizationRow["merge_rules"]> {
  const row = await db
    .selectFrom("organizations")
    .select("merge_rules")
    .where("id", "=", organizationId)
    .executeTakeFirstOrThrow();
  return row.merge_rules;
}

/** The organizations the caller is a member of, with their role in each, by id. */
export const listOrganizationsOfUser = keysetList(
  (db, args: { userId: string }) =>
    db
      .selectFrom("organizations")
      .innerJoin("memberships", "memberships.organization_id", "organizations.id")
      .selectAll("organizations")
      .select("memberships.role")
      .select(callerOwnsTeam(args.userId, sql.ref("organizations.id")).as("caller_owns_team"))
      .where("memberships.user_id", "=", args.userId),
  { id: "string" },
);

export interface NewOrganization {
  title: string;
  emailDomains?: string[];
}

/**
 * The row of a new organization, with the defaults. `createOrganization` in `commands/` inserts it
 * (`insertOrganization`) and makes its owner admin, in one transaction.
 */
export function newOrganization(
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  input: NewOrganization,
): OrganizationRow {
  const now = timestamp(clock.now());
  return {
    id: ids.next(),
    title: input.title,
    type: "business",
    use_case: null,
    community_type: null,
    hostname: null,
    email_domains: toJson(input.emailDomains ?? []),
    default_role: "read",
    default_content_site: null,
    sso: 0,
    ai: 0,
    invite_links: 1,
    plan: "free_2024",
    logo_url: null,
    trial_status: "notapplicable",
    created_at: now,
    updated_at: now,
    merge_rules: null,
    require_second_factor: 0,
  };
}

export async function insertOrganization(tx: Db, organization: OrganizationRow): Promise<void> {
  await tx.insertInto("organizations").values(organization).execute();
}

/** An organization no longer opens on a site that is gone: clears it where it is the default content site. */
export async function forgetDefaultContentSite(tx: Db, siteId: string): Promise<void> {
  await tx
    .updateTable("organizations")
    .set({ default_content_site: null })
    .where("default_content_site", "=", siteId)
    .execute();
}

/** See `updateById`: an empty change writes nothing. */
export function updateOrganization(
  db: Db,
  organization: OrganizationRow,
  changes: Partial<Omit<OrganizationRow, "id" | "created_at" | "updated_at">>,
  now: string,
): Promise<OrganizationRow> {
  return updateById(db, "organizations", organization, changes, now);
}

export async function hostnameTaken(db: Db, hostname: string, exceptId: string): Promise<boolean> {
  const row = await db
    .selectFrom("organizations")
    .select("id")
    .where("hostname", "=", hostname)
    .where("id", "!=", exceptId)
    .executeTakeFirst();
  return row !== undefined;
}
