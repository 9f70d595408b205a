import type { Schema } from "@quire/api-types";
import { type SqlBool, sql } from "kysely";
import {
  type ContentAccess,
  callerMembership,
  contentAccess,
  contentGrant,
  contentWithCaller,
  grantAware,
  listsContent,
} from "../access.js";
import { insertFirstRevision } from "../content/revisions.js";
import type { Clock, IdGenerator } from "../context.js";
import { toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { SpaceTable } from "../db/schema.js";
import { updateById } from "../db/update.js";
import { notFound } from "../http/errors.js";
import { keysetList, type PageQuery } from "../http/paging.js";
import type { OrganizationRole } from "../policy.js";
import { type ActivityColumn, noActivity } from "./activity.js";

/** A deleted space can be restored for this long; after it the space is removed for good. */
export const DELETED_SPACE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

const retentionCutoff = (now: Date) => new Date(now.getTime() - DELETED_SPACE_RETENTION_MS).toISOString();

const spaceGrant = (withGrants: boolean, userId: string) => contentGrant("spaces", withGrants, userId);

export type MemberSpace = Omit<ContentAccess<SpaceTable>, "row"> & { space: SpaceTable };

const spaceWithMembership = contentWithCaller("spaces");

/**
 * The space with the caller's role on it, in one statement; 404 when missing, removed for good, or
 * not visible to the caller. Deleted spaces still within their retention are returned.
 */
export async function spaceForCaller(
  db: Db,
  spaceId: string,
  userId: string,
  now: Date,
): Promise<MemberSpace> {
  const [found] = await spaceWithMembership(db, { id: spaceId, userId });
  // Past its retention a deleted space is gone, even before the hourly purge removes the row.
  const deletedAt = found?.deleted_at;
  if (deletedAt && Date.parse(deletedAt) <= now.getTime() - DELETED_SPACE_RETENTION_MS)
    throw notFound("Space");
  const { row: space, ...access } = contentAccess(found, "Space");
  return { space, ...access };
}

/**
 * The spaces of an organization as listed by a member (all of them) or by a guest (those granted to
 * them). The caller's role is known already (the access rule read it), so no row asks for it again.
 */
const spacesOf = (
  db: Db,
  args: { organizationId: string; userId: string },
  guest: boolean,
  withGrants: boolean,
) => {
  const query = db
    .selectFrom("spaces")
    .selectAll()
    .select(spaceGrant(withGrants, args.userId).as("caller_grant"))
    .where("organization_id", "=", args.organizationId);
  return guest ? query.where(sql<SqlBool>`${spaceGrant(withGrants, args.userId)} is not null`) : query;
};
/** Those not deleted, by id. */
const liveListedBy = (guest: boolean) =>
  grantAware((withGrants) =>
    keysetList(
      (db, args: { organizationId: string; userId: string }) =>
        spacesOf(db, args, guest, withGrants).where("deleted_at", "is", null),
      { id: "string" },
    ),
  );
/** Those deleted since `deletedSince`, the last deleted first. */
const deletedListedBy = (guest: boolean) =>
  grantAware((withGrants) =>
    keysetList(
      (db, args: { organizationId: string; userId: string; deletedSince: string }) =>
        spacesOf(db, args, guest, withGrants).where("deleted_at", ">", args.deletedSince),
      { deleted_at: "string", id: "string" },
      { descending: true },
    ),
  );
const listers = {
  live: { member: liveListedBy(false), guest: liveListedBy(true) },
  deleted: { member: deletedListedBy(false), guest: deletedListedBy(true) },
};

/**
 * The spaces of an organization the caller lists, for their role there (null: a guest): those not
 * deleted, or those deleted that can still be restored.
 */
export function listSpacesInOrganization(
  db: Db,
  args: { organizationId: string; userId: string; role: OrganizationRole; deleted?: { now: Date } },
  query: PageQuery,
) {
  const { role, deleted, ...ids } = args;
  const who = role === null ? "guest" : "member";
  return deleted
    ? listers.deleted[who](db, { ...ids, deletedSince: retentionCutoff(deleted.now) }, query)
    : listers.live[who](db, ids, query);
}

/** Spaces directly inside a collection, in their order among its children. */
export const listSpacesInCollection = grantAware((withGrants) =>
  keysetList(
    (db, args: { collectionId: string; userId: string }) =>
      db
        .selectFrom("spaces")
        .selectAll()
        .select(callerMembership(args.userId, sql.ref("spaces.organization_id")).as("caller_membership"))
        .select(spaceGrant(withGrants, args.userId).as("caller_grant"))
        .where("parent_id", "=", args.collectionId)
        .where("deleted_at", "is", null)
        .where(
          listsContent(args.userId, sql.ref("spaces.organization_id"), spaceGrant(withGrants, args.userId)),
        ),
    { position: "number", id: "string" },
  ),
);

/** Creates a space with its first revision. Call inside a transaction. */
export async function insertSpace(
  db: Db,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  fields: Omit<
    SpaceTable,
    | "id"
    | "revision_id"
    | "created_at"
    | "updated_at"
    | "deleted_at"
    | "git_sync"
    | "merge_rules"
    | "language"
    | "default_level_inherited"
    | ActivityColumn
  > & { language?: string | null },
): Promise<SpaceTable> {
  const now = clock.now().toISOString();
  const space: SpaceTable = {
    ...fields,
    id: ids.next(),
    revision_id: ids.next(),
    created_at: now,
    updated_at: now,
    deleted_at: null,
    git_sync: null,
    merge_rules: null,
    language: fields.language ?? null,
    default_level_inherited: 0,
    ...noActivity,
  };
  await db.insertInto("spaces").values(space).execute();
  await insertFirstRevision(db, { id: space.revision_id, spaceId: space.id, now });
  return space;
}

/** See `updateById`: an empty change writes nothing. */
export function updateSpace(
  db: Db,
  space: SpaceTable,
  changes: Partial<Omit<SpaceTable, "id" | "created_at" | "updated_at" | "git_sync" | ActivityColumn>>,
  now: string,
): Promise<SpaceTable> {
  return updateById(db, "spaces", space, changes, now);
}

/**
 * Sets what `Space.gitSync` shows (null: not connected). The Git Sync area calls it in the transaction
 * that connects, syncs or disconnects the space; it is no edit of the space, so `updated_at` stays.
 */
export async function setSpaceGitSync(
  db: Db,
  spaceId: string,
  gitSync: Schema<"SpaceGitSync"> | null,
): Promise<void> {
  await db
    .updateTable("spaces")
    .set({ git_sync: gitSync === null ? null : toJson(gitSync) })
    .where("id", "=", spaceId)
    .execute();
}

/** The space with this id, deleted or not; undefined once removed for good. */
export function spaceById(db: Db, id: string): Promise<SpaceTable | undefined> {
  return db.selectFrom("spaces").selectAll().where("id", "=", id).executeTakeFirst();
}

export function getSpace(db: Db, id: string): Promise<SpaceTable> {
  return db.selectFrom("spaces").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** Removes for good the spaces deleted longer ago than the retention; returns how many. */
export async function purgeExpiredSpaces(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("spaces")
    .where("deleted_at", "<=", retentionCutoff(now))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
