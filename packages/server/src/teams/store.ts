import { sql } from "kysely";
import { callerMembership, grantedRank, grantHolders } from "../access.js";
import type { Db } from "../db/database.js";
import { memberLookup } from "../db/member-lookup.js";
import { preparedRead } from "../db/prepared.js";
import { notFound } from "../http/errors.js";
import { keysetList } from "../http/paging.js";
import { members } from "../members/index.js";
import type { OrganizationRole } from "../policy.js";
import type { TeamMemberRole, TeamTable } from "./tables.js";

/** A team with its counts and the caller's role in it. */
export interface TeamRow extends TeamTable {
  member_count: number | string;
  space_count: number | string;
  caller_team_role: TeamMemberRole | null;
}

/**
 * Teams (as `t`) with their counts and `callerId`'s role in each. A team reaches the spaces its
 * grants name, or that are inside a collection it was granted (`grantedRank` of the team's id).
 */
export function teams(db: Db, callerId: string) {
  return db
    .selectFrom("teams as t")
    .selectAll("t")
    .select(
      sql<number | string>`(select count(*) from team_members tm where tm.team_id = t.id)`.as("member_count"),
    )
    .select(
      sql<number | string>`(select count(*) from spaces s where s.organization_id = t.organization_id
        and s.deleted_at is null
        and ${grantedRank(sql.ref("t.id"), sql.ref("s.id"), sql.ref("s.parent_id"))} is not null)`.as(
        "space_count",
      ),
    )
    .select(
      sql<TeamMemberRole | null>`(select tm.role from team_members tm
        where tm.team_id = t.id and tm.user_id = ${callerId})`.as("caller_team_role"),
    );
}

const teamWithCaller = preparedRead(
  (db, args: { organizationId: string; teamId: string; callerId: string }) =>
    db
      .selectFrom("organizations as o")
      .leftJoin(
        () => teams(db, args.callerId).where("t.id", "=", args.teamId).as("team"),
        (join) => join.onRef("team.organization_id", "=", "o.id"),
      )
      .selectAll("team")
      .select(callerMembership(args.callerId, sql.ref("o.id")).as("caller_membership"))
      .where("o.id", "=", args.organizationId),
);

/** The team and the caller's organization role, in one statement; 404 for a missing team or organization. */
export async function teamForCaller(
  db: Db,
  args: { organizationId: string; teamId: string; callerId: string },
): Promise<{ team: TeamRow; callerRole: OrganizationRole }> {
  const [found] = await teamWithCaller(db, args);
  const { row: team, role: callerRole } = memberLookup(found, "Organization");
  if (team.id === null) throw notFound("Team");
  return { team: team as TeamRow, callerRole };
}

/** The teams of an organization, by id, filtered by title and by who can manage them. */
export const listTeams = keysetList(
  (db, args: { organizationId: string; callerId: string; title: string | null; owner: string | null }) =>
    teams(db, args.callerId)
      .select(callerMembership(args.callerId, args.organizationId).as("caller_membership"))
      .where("t.organization_id", "=", args.organizationId)
      .where(
        sql<boolean>`(cast(${args.title} as text) is null or lower(t.title) like ${args.title} escape '\\')`,
      )
      .where(
        sql<boolean>`(cast(${args.owner} as text) is null
          or ${callerMembership(args.owner ?? "", args.organizationId)} = 'admin'
          or exists (select 1 from team_members tm
            where tm.team_id = t.id and tm.user_id = ${args.owner} and tm.role = 'owner'))`,
      ),
  { id: "string" },
);

/** The teams of an organization the user belongs to, with their role in each, by id. */
export const listTeamsOfMember = keysetList(
  (db, args: { organizationId: string; userId: string; callerId: string; title: string | null }) =>
    teams(db, args.callerId)
      .innerJoin("team_members as membership", "membership.team_id", "t.id")
      .select("membership.role as member_role")
      .where("t.organization_id", "=", args.organizationId)
      .where("membership.user_id", "=", args.userId)
      .where(
        sql<boolean>`(cast(${args.title} as text) is null or lower(t.title) like ${args.title} escape '\\')`,
      ),
  { id: "string" },
);

/**
 * The members of a team as organization members, with their role in the team, by user id. The
 * team's rows are read in subqueries: joined, their `user_id` would make the page keys ambiguous.
 */
export const listTeamMembers = keysetList(
  (db, args: { teamId: string; organizationId: string }) =>
    members(db)
      .select(
        sql<TeamMemberRole>`(select tm.role from team_members tm
          where tm.team_id = ${args.teamId} and tm.user_id = m.user_id)`.as("team_role"),
      )
      .where("m.organization_id", "=", args.organizationId)
      .where(
        "m.user_id",
        "in",
        db.selectFrom("team_members").select("user_id").where("team_id", "=", args.teamId),
      ),
  { user_id: "string" },
);

export async function insertTeam(
  tx: Db,
  team: TeamTable,
  memberIds: readonly string[],
  now: string,
): Promise<void> {
  await tx.insertInto("teams").values(team).execute();
  if (memberIds.length > 0) grantHolders.forgetAll();
  if (memberIds.length > 0)
    await tx
      .insertInto("team_members")
      .values(
        memberIds.map((userId) => ({
          team_id: team.id,
          user_id: userId,
          role: "member" as const,
          created_at: now,
        })),
      )
      .execute();
}

/** The ids among `ids` that name no member (`memberships`) or no team (`teams`) of the organization. */
export async function unknownIds(
  db: Db,
  organizationId: string,
  kind: "memberships" | "teams",
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const column = kind === "teams" ? "id" : "user_id";
  const found = await db
    .selectFrom(kind)
    .select(sql<string>`${sql.ref(column)}`.as("id"))
    .where("organization_id", "=", organizationId)
    .where(sql.ref(column), "in", [...ids])
    .execute();
  const known = new Set(found.map((row) => row.id));
  return ids.filter((id) => !known.has(id));
}

/** The ids among `userIds` that are not members of the organization. */
export const nonMembers = (db: Db, organizationId: string, userIds: readonly string[]) =>
  unknownIds(db, organizationId, "memberships", userIds);

export async function renameTeam(db: Db, teamId: string, title: string): Promise<void> {
  await db.updateTable("teams").set({ title }).where("id", "=", teamId).execute();
}

/** Deletes a team; its memberships, grants and place as a SAML default go by cascade. */
export async function deleteTeam(db: Db, teamId: string): Promise<void> {
  await db.deleteFrom("teams").where("id", "=", teamId).execute();
}

/**
 * Adds the user to the team with `role` (`member` when none), or sets their role when given; true when
 * the user was not in the team before.
 */
export async function upsertTeamMember(
  db: Db,
  teamId: string,
  userId: string,
  role: TeamMemberRole | undefined,
  now: string,
): Promise<boolean> {
  grantHolders.forgetAll();
  const before = await db
    .selectFrom("team_members")
    .select("user_id")
    .where("team_id", "=", teamId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  await db
    .insertInto("team_members")
    .values({ team_id: teamId, user_id: userId, role: role ?? "member", created_at: now })
    .onConflict((c) =>
      role
        ? c.columns(["team_id", "user_id"]).doUpdateSet({ role })
        : c.columns(["team_id", "user_id"]).doNothing(),
    )
    .execute();
  return before === undefined;
}

/** Takes the user out of every team of the organization (when they leave it). */
export async function removeFromTeamsOf(tx: Db, organizationId: string, userId: string): Promise<void> {
  await tx
    .deleteFrom("team_members")
    .where("user_id", "=", userId)
    .where("team_id", "in", tx.selectFrom("teams").select("id").where("organization_id", "=", organizationId))
    .execute();
}

/** Takes the user out of the team; false when they were not in it. */
export async function removeTeamMember(db: Db, teamId: string, userId: string): Promise<boolean> {
  const { numDeletedRows } = await db
    .deleteFrom("team_members")
    .where("team_id", "=", teamId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return numDeletedRows > 0n;
}
