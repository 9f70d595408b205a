import { asMemberContent } from "../content/tree.js";
import type { Clock, IdGenerator } from "../context.js";
import type { Db } from "../db/database.js";
import type { Role, SpaceTable } from "../db/schema.js";
import { keysetPage, type PageQuery } from "../http/paging.js";

/** A deleted space can be restored for this long; after it the space is removed for good. */
export const DELETED_SPACE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

const retentionCutoff = (now: Date) => new Date(now.getTime() - DELETED_SPACE_RETENTION_MS).toISOString();

export interface MemberSpace {
  space: SpaceTable;
  /** The caller's effective role on the space. */
  role: Role;
  organizationRole: Role;
}

/**
 * The space with the caller's role on it; 404 when missing, removed for good, or in an organization
 * the caller is not in. Deleted spaces still within their retention are returned.
 */
export async function spaceForMember(
  db: Db,
  spaceId: string,
  userId: string,
  now: Date,
): Promise<MemberSpace> {
  const row = await db
    .selectFrom("spaces")
    .innerJoin("memberships", "memberships.organization_id", "spaces.organization_id")
    .selectAll("spaces")
    .select("memberships.role")
    .where("spaces.id", "=", spaceId)
    .where("memberships.user_id", "=", userId)
    .where((eb) =>
      eb.or([eb("spaces.deleted_at", "is", null), eb("spaces.deleted_at", ">", retentionCutoff(now))]),
    )
    .executeTakeFirst();
  const { row: space, ...roles } = asMemberContent<SpaceTable>(row, "Space");
  return { space, ...roles };
}

export function listSpacesInOrganization(db: Db, organizationId: string, query: PageQuery) {
  const base = db
    .selectFrom("spaces")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null);
  return keysetPage(base, ["id"], query);
}

/** Spaces directly inside a collection, in their order among its children. */
export function listSpacesInCollection(db: Db, collectionId: string, query: PageQuery) {
  const base = db
    .selectFrom("spaces")
    .selectAll()
    .where("parent_id", "=", collectionId)
    .where("deleted_at", "is", null);
  return keysetPage(base, ["position", "id"], query);
}

/** Creates a space with its first revision. Call inside a transaction. */
export async function insertSpace(
  db: Db,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  fields: Omit<SpaceTable, "id" | "revision_id" | "created_at" | "updated_at" | "deleted_at">,
): Promise<SpaceTable> {
  const now = clock.now().toISOString();
  const space: SpaceTable = {
    ...fields,
    id: ids.next(),
    revision_id: ids.next(),
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  await db.insertInto("spaces").values(space).execute();
  await db
    .insertInto("revisions")
    .values({ id: space.revision_id, space_id: space.id, parent_id: null, type: "edits", created_at: now })
    .execute();
  return space;
}

export function updateSpace(
  db: Db,
  id: string,
  changes: Partial<Omit<SpaceTable, "id">>,
): Promise<SpaceTable> {
  return db.updateTable("spaces").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
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

export interface SpaceActivity {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

/** Open comments and change requests by status, for each of `spaceIds`, in two grouped queries. */
export async function activityOf(db: Db, spaceIds: readonly string[]): Promise<Map<string, SpaceActivity>> {
  const activity = new Map<string, SpaceActivity>(
    spaceIds.map((id) => [
      id,
      { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 },
    ]),
  );
  if (spaceIds.length === 0) return activity;
  const [comments, changeRequests] = await Promise.all([
    db
      .selectFrom("comments")
      .select(["space_id", (eb) => eb.fn.countAll<number | string>().as("count")])
      .where("space_id", "in", spaceIds)
      .where("status", "=", "open")
      .groupBy("space_id")
      .execute(),
    db
      .selectFrom("change_requests")
      .select(["space_id", "status", (eb) => eb.fn.countAll<number | string>().as("count")])
      .where("space_id", "in", spaceIds)
      .groupBy(["space_id", "status"])
      .execute(),
  ]);
  for (const row of comments) {
    const entry = activity.get(row.space_id);
    if (entry) entry.comments = Number(row.count);
  }
  for (const row of changeRequests) {
    const entry = activity.get(row.space_id);
    if (!entry) continue;
    entry.changeRequests += Number(row.count);
    if (row.status === "open") entry.changeRequestsOpen += Number(row.count);
    if (row.status === "draft") entry.changeRequestsDraft += Number(row.count);
  }
  return activity;
}
