import { sql } from "kysely";
import { grantedRank, grantHolders, rankOf } from "../access.js";
import type { Clock, IdGenerator } from "../context.js";
import { timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { Role } from "../db/schema.js";
import { recordEvent } from "../events/record.js";
import { keysetList } from "../http/paging.js";
import { teams } from "../teams/index.js";

/** A space or collection whose grants are read or changed. */
export interface GrantedContent {
  kind: "space" | "collection";
  id: string;
  organizationId: string;
  parentId: string | null;
  defaultLevel: Role;
}

/**
 * Gives each user and team `role` on the content, or takes their role there away (null), recording
 * an event for each one whose role there changed.
 */
export async function setGrants(
  tx: Db,
  context: { clock: Clock; ids: IdGenerator },
  actorId: string,
  content: GrantedContent,
  grantees: { users: readonly string[]; teams: readonly string[] },
  role: Role | null,
): Promise<void> {
  const principals = [...grantees.users, ...grantees.teams];
  if (principals.length === 0) return;
  const held = new Map(
    (
      await tx
        .selectFrom("content_permissions")
        .select(["principal_id", "role"])
        .where("content_id", "=", content.id)
        .where("principal_id", "in", principals)
        .execute()
    ).map((row) => [row.principal_id, row.role]),
  );
  if (role === null) {
    await tx
      .deleteFrom("content_permissions")
      .where("content_id", "=", content.id)
      .where("principal_id", "in", principals)
      .execute();
  } else {
    const base = {
      content_id: content.id,
      organization_id: content.organizationId,
      space_id: content.kind === "space" ? content.id : null,
      collection_id: content.kind === "collection" ? content.id : null,
      role,
      created_at: timestamp(context.clock.now()),
    };
    grantHolders.forgetAll();
    await tx
      .insertInto("content_permissions")
      .values([
        ...grantees.users.map((id) => ({ ...base, principal_id: id, user_id: id, team_id: null })),
        ...grantees.teams.map((id) => ({ ...base, principal_id: id, user_id: null, team_id: id })),
      ])
      .onConflict((c) => c.columns(["content_id", "principal_id"]).doUpdateSet({ role }))
      .execute();
  }
  const on = content.kind === "space" ? { space: content.id } : { collection: content.id };
  const event = {
    organizationId: content.organizationId,
    actorId,
    ...(content.kind === "space" && { spaceId: content.id }),
  };
  for (const [key, ids] of [
    ["user", grantees.users],
    ["team", grantees.teams],
  ] as const) {
    for (const id of ids) {
      const previous = held.get(id);
      if (role === null && previous !== undefined)
        await recordEvent(tx, context, {
          ...event,
          type: "permission_removed",
          data: { ...on, [key]: id, role: previous },
        });
      else if (role !== null && previous !== role)
        await recordEvent(tx, context, {
          ...event,
          type: "permission_granted",
          data: { ...on, [key]: id, role, ...(previous !== undefined && { previousRole: previous }) },
        });
    }
  }
}

/** Removes every grant the user holds in the organization (when they leave it). */
export async function removeGrantsOf(tx: Db, organizationId: string, userId: string): Promise<void> {
  await tx
    .deleteFrom("content_permissions")
    .where("principal_id", "=", userId)
    .where("organization_id", "=", organizationId)
    .execute();
}

/** The users given a role on the content itself, by user id. */
export const listUserGrants = keysetList(
  (db, args: { contentId: string }) =>
    db
      .selectFrom("content_permissions as g")
      .innerJoin("users as u", "u.id", "g.user_id")
      .selectAll("u")
      .select(["g.principal_id", "g.role as permission"])
      .where("g.content_id", "=", args.contentId),
  { principal_id: "string" },
);

/** The teams given a role on the content itself, by team id. */
export const listTeamGrants = keysetList(
  (db, args: { contentId: string; callerId: string }) =>
    teams(db, args.callerId)
      .innerJoin("content_permissions as g", "g.team_id", "t.id")
      .select(["g.principal_id", "g.role as permission"])
      .where("g.content_id", "=", args.contentId),
  { principal_id: "string" },
);

/**
 * Every member who reaches the content, with the rank of their role there: the highest of their
 * organization role, the content's default level (members only) and their grants; guests only
 * through grants. Filtered by one role when `role` is set.
 */
export const listAccess = keysetList(
  (
    db,
    args: {
      organizationId: string;
      contentId: string;
      parentId: string | null;
      defaultLevel: string;
      role: string | null;
    },
  ) => {
    const grant = grantedRank(sql.ref("m.user_id"), sql.val(args.contentId), sql.val(args.parentId));
    const effective = sql<number | null>`(select max(r) from (
        select ${rankOf(sql.ref("m.role"))} as r
        union all select case when m.role is not null then ${rankOf(sql.val(args.defaultLevel))} end
        union all select ${grant}) as ranks)`;
    return db
      .selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .selectAll("u")
      .select("m.user_id")
      .select(effective.as("rank"))
      .where("m.organization_id", "=", args.organizationId)
      .where(sql<boolean>`${effective} is not null`)
      .where(
        sql<boolean>`(cast(${args.role} as text) is null or ${effective} = ${rankOf(sql.val(args.role))})`,
      );
  },
  { user_id: "string" },
);
