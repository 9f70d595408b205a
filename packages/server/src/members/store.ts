import { type Expression, SqliteAdapter, sql } from "kysely";
import { callerMembership, grantedRank, listsContent } from "../access.js";
import type { Clock, IdGenerator } from "../context.js";
import { type Flag, flag } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { memberLookup } from "../db/member-lookup.js";
import { preparedRead } from "../db/prepared.js";
import type { Role, SpaceTable, UserTable } from "../db/schema.js";
import { type EventData, recordEvent } from "../events/record.js";
import { notFound } from "../http/errors.js";
import { keysetList } from "../http/paging.js";
import type { OrganizationRole } from "../policy.js";

/** A membership as the API shows it: the member's user and their counts. */
export interface MemberRow extends UserTable {
  organization_id: string;
  user_id: string;
  role: Role | null;
  joined_at: string;
  last_seen_at: string | null;
  sso: Flag;
  team_count: number | string;
  space_count: number | string;
  site_count: number | string;
}

/** SQL: how many teams of the organization the user belongs to. */
export const teamCountOf = (userId: Expression<string>, organizationId: Expression<string>) =>
  sql<number | string>`(select count(*) from team_members tm inner join teams t on t.id = tm.team_id
    where tm.user_id = ${userId} and t.organization_id = ${organizationId})`;

/**
 * SQL: how many spaces of the organization the member of row `m` reaches, that are not deleted:
 * every one for a member with a role, the granted ones for a guest.
 */
const spaceCount = sql<number | string>`(select count(*) from spaces s
  where s.organization_id = m.organization_id and s.deleted_at is null
    and (m.role is not null or ${grantedRank(sql.ref("m.user_id"), sql.ref("s.id"), sql.ref("s.parent_id"))} is not null))`;

/**
 * SQL: how many sites of the organization the member of row `m` reaches: every one for a member
 * with a role, none for a guest (sites have no per-member grants: see `canReadSites` in sites/policy.ts).
 */
const siteCount = sql<number | string>`(select count(*) from sites st
  where st.organization_id = m.organization_id and m.role is not null)`;

/** Memberships (as `m`) with their users and counts; the caller picks the rows. */
export function members(db: Db) {
  return db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .selectAll("u")
    .select(["m.organization_id", "m.user_id", "m.role", "m.joined_at", "m.last_seen_at", "m.sso"])
    .select(teamCountOf(sql.ref("m.user_id"), sql.ref("m.organization_id")).as("team_count"))
    .select(spaceCount.as("space_count"))
    .select(siteCount.as("site_count"));
}

const memberWithCaller = preparedRead(
  (db, args: { organizationId: string; userId: string; callerId: string }) =>
    db
      .selectFrom("organizations as o")
      .leftJoin(
        () => members(db).where("m.user_id", "=", args.userId).as("member"),
        (join) => join.onRef("member.organization_id", "=", "o.id"),
      )
      .selectAll("member")
      .select(callerMembership(args.callerId, sql.ref("o.id")).as("caller_membership"))
      .where("o.id", "=", args.organizationId),
);

export interface MemberLookup {
  /** The caller's role in the organization. */
  callerRole: OrganizationRole;
  /** The member, when the user is one. */
  member: MemberRow | undefined;
}

/**
 * The member `userId` of the organization and the caller's role there, in one statement; 404 when
 * the organization is missing or the caller is not in it.
 */
export async function memberForCaller(
  db: Db,
  args: { organizationId: string; userId: string; callerId: string },
): Promise<MemberLookup> {
  const [found] = await memberWithCaller(db, args);
  const { row: member, role: callerRole } = memberLookup(found, "Organization");
  return { callerRole, member: member.user_id === null ? undefined : (member as MemberRow) };
}

/** `memberForCaller`, with 404 when the user is not a member. */
export async function existingMember(
  db: Db,
  args: { organizationId: string; userId: string; callerId: string },
): Promise<{ callerRole: OrganizationRole; member: MemberRow }> {
  const { callerRole, member } = await memberForCaller(db, args);
  if (!member) throw notFound("Member");
  return { callerRole, member };
}

export type MemberSortKey = "joinedAt" | "lastSeenAt" | "name";

interface MemberListArgs {
  organizationId: string;
  callerId: string;
  /** A role, `guest`, or null for every member. */
  role: string | null;
  /** A `like` pattern over the lower-cased display name and email, or null. */
  search: string | null;
  [name: string]: string | number | null;
}

function memberList(sort: MemberSortKey, descending: boolean) {
  const build = (db: Db, args: MemberListArgs) => {
    let query = members(db)
      .select(callerMembership(args.callerId, args.organizationId).as("caller_membership"))
      .where("m.organization_id", "=", args.organizationId)
      .where(
        sql<boolean>`(cast(${args.role} as text) is null or m.role = ${args.role}
          or (${args.role} = 'guest' and m.role is null))`,
      )
      .where(
        sql<boolean>`(cast(${args.search} as text) is null or lower(u.display_name) like ${args.search} escape '\\'
          or lower(u.email) like ${args.search} escape '\\')`,
      );
    if (sort === "lastSeenAt") query = query.where("m.last_seen_at", "is not", null);
    return query;
  };
  const column = { joinedAt: "joined_at", lastSeenAt: "last_seen_at", name: "display_name" } as const;
  return keysetList(build, { [column[sort]]: "string", user_id: "string" }, { descending });
}

const memberLists = new Map(
  (["joinedAt", "lastSeenAt", "name"] as const).flatMap((sort) =>
    [false, true].map((descending) => [`${sort}:${descending}`, memberList(sort, descending)] as const),
  ),
);

/** The members of an organization matching the filters, in the order asked, each with the caller's membership. */
export function listMembers(sort: MemberSortKey, descending: boolean) {
  const list = memberLists.get(`${sort}:${descending}`);
  if (!list) throw new Error(`No member list sorted by ${sort}`);
  return list;
}

/** A `like` pattern matching `text` anywhere, ignoring case. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Serialises changes to an organization's memberships (PostgreSQL: the organization's row, until
 * the transaction ends), so that two demotions cannot each leave the other admin alone. SQLite
 * runs one writing transaction at a time already.
 */
export async function lockMemberships(tx: Db, organizationId: string): Promise<void> {
  if (tx.getExecutor().adapter instanceof SqliteAdapter) return;
  // NO KEY UPDATE, as `lockContentTree`: rows referencing the organization still insert.
  await tx
    .selectFrom("organizations")
    .select("id")
    .where("id", "=", organizationId)
    .forNoKeyUpdate()
    .execute();
}

/** How many admins the organization has other than `userId`. */
export async function otherAdmins(tx: Db, organizationId: string, userId: string): Promise<number> {
  const row = await tx
    .selectFrom("memberships")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("organization_id", "=", organizationId)
    .where("role", "=", "admin")
    .where("user_id", "!=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Who changes memberships, and what their events are numbered and dated with. */
export interface MembershipChange {
  clock: Clock;
  ids: IdGenerator;
  /** The user who makes the change; omitted for the server's own (the CLI, a bench). */
  actorId?: string;
}

const memberEvent = <T extends "member_joined" | "member_role_updated" | "member_removed">(
  tx: Db,
  change: MembershipChange,
  organizationId: string,
  type: T,
  data: EventData<T>,
) =>
  recordEvent(tx, change, {
    organizationId,
    type,
    data,
    ...(change.actorId !== undefined && { actorId: change.actorId }),
  });

export async function setMemberRole(
  tx: Db,
  change: MembershipChange,
  { organizationId, userId, role }: { organizationId: string; userId: string; role: Role | null },
) {
  const current = await tx
    .selectFrom("memberships")
    .select("role")
    .where("organization_id", "=", organizationId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!current || current.role === role) return;
  await tx
    .updateTable("memberships")
    .set({ role })
    .where("organization_id", "=", organizationId)
    .where("user_id", "=", userId)
    .execute();
  await memberEvent(tx, change, organizationId, "member_role_updated", {
    user: userId,
    role,
    previousRole: current.role,
  });
}

export interface NewMembership {
  organizationId: string;
  userId: string;
  /** Null for a guest. */
  role: Role | null;
  joinedAt: string;
  /** Whether the member signs in through single sign-on; the column's default when left out. */
  sso?: boolean;
}

/**
 * Makes the user a member of the organization. With `ifAbsent`, a membership already there stays as
 * it is (never a second one); without it, a second one fails on the primary key.
 */
export async function addMembership(
  db: Db,
  change: MembershipChange,
  membership: NewMembership,
  options: { ifAbsent?: boolean } = {},
): Promise<void> {
  let insert = db.insertInto("memberships").values({
    organization_id: membership.organizationId,
    user_id: membership.userId,
    role: membership.role,
    joined_at: membership.joinedAt,
    ...(membership.sso !== undefined && { sso: flag(membership.sso) }),
  });
  if (options.ifAbsent)
    insert = insert.onConflict((c) => c.columns(["organization_id", "user_id"]).doNothing());
  const added = await insert.returning("user_id").executeTakeFirst();
  if (added)
    await memberEvent(db, change, membership.organizationId, "member_joined", {
      user: membership.userId,
      role: membership.role,
    });
}

/**
 * Removes the membership row only. Leaving an organization also takes the member's team memberships
 * and grants: that is `removeMember` in `commands/`, which calls this.
 */
export async function removeMembership(
  tx: Db,
  change: MembershipChange,
  organizationId: string,
  userId: string,
): Promise<void> {
  const removed = await tx
    .deleteFrom("memberships")
    .where("organization_id", "=", organizationId)
    .where("user_id", "=", userId)
    .returning("role")
    .executeTakeFirst();
  if (removed)
    await memberEvent(tx, change, organizationId, "member_removed", { user: userId, role: removed.role });
}

/** Records the member's activity; false when the user is not a member. */
export async function touchMember(
  db: Db,
  organizationId: string,
  userId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable("memberships")
    .set({ last_seen_at: now })
    .where("organization_id", "=", organizationId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setMemberSso(db: Db, organizationId: string, userId: string) {
  await db
    .updateTable("memberships")
    .set({ sso: 1 })
    .where("organization_id", "=", organizationId)
    .where("user_id", "=", userId)
    .execute();
}

/** Whether the user belongs to an organization other than `organizationId`. */
/** Those of `userIds` who are not members of the organization (guests are members). */
export async function nonMembers(
  db: Db,
  organizationId: string,
  userIds: readonly string[],
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const found = await db
    .selectFrom("memberships")
    .select("user_id")
    .where("organization_id", "=", organizationId)
    .where("user_id", "in", [...userIds])
    .execute();
  const members = new Set(found.map((row) => row.user_id));
  return userIds.filter((id) => !members.has(id));
}

export async function inOtherOrganization(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("memberships")
    .select("organization_id")
    .where("user_id", "=", userId)
    .where("organization_id", "!=", organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

/** SQL: `userId`'s grant on the space of the row (see `grantedRank`). */
const grantOnSpace = (userId: string) =>
  grantedRank(userId, sql.ref("spaces.id"), sql.ref("spaces.parent_id"));

/**
 * The spaces of an organization the member reaches, not deleted, by creation, with the member's
 * grant (to compute their role) and the caller's membership and grant (to show each space as they see it).
 */
function memberSpaceList(descending: boolean) {
  return keysetList(
    (db, args: { organizationId: string; userId: string; callerId: string }) =>
      db
        .selectFrom("spaces")
        .selectAll()
        .select(grantOnSpace(args.userId).as("member_grant"))
        .select(callerMembership(args.callerId, args.organizationId).as("caller_membership"))
        .select(grantOnSpace(args.callerId).as("caller_grant"))
        .where("organization_id", "=", args.organizationId)
        .where("deleted_at", "is", null)
        .where(listsContent(args.userId, args.organizationId, grantOnSpace(args.userId))),
    { created_at: "string", id: "string" },
    { descending },
  );
}

const memberSpaceLists = { asc: memberSpaceList(false), desc: memberSpaceList(true) };

export type MemberSpaceRow = SpaceTable & {
  member_grant: number | string | null;
  caller_grant: number | string | null;
};

/** See `memberSpaceList`. */
export const listSpacesOfMember = (order: "asc" | "desc") => memberSpaceLists[order];
