import {
  type ContentAccess,
  callerMembership,
  contentAccess,
  emptyPage,
  listsAllContent,
} from "../access.js";
import type { Db } from "../db/database.js";
import type { CollectionTable } from "../db/schema.js";
import { keysetPage, type PageQuery, type PageResult } from "../http/paging.js";
import type { OrganizationRole } from "../policy.js";

export type MemberCollection = Omit<ContentAccess<CollectionTable>, "row"> & { collection: CollectionTable };

/** The collection with the caller's role on it; 404 when missing or in an organization the caller is not in. */
export async function collectionForMember(
  db: Db,
  collectionId: string,
  userId: string,
): Promise<MemberCollection> {
  const found = await db
    .selectFrom("collections")
    .selectAll()
    .select(callerMembership(userId, "collections.organization_id").as("caller_membership"))
    .where("id", "=", collectionId)
    .executeTakeFirst();
  const { row: collection, ...access } = contentAccess(found, "Collection");
  return { collection, ...access };
}

export async function listCollections(
  db: Db,
  organizationId: string,
  role: OrganizationRole,
  nested: boolean,
  query: PageQuery,
): Promise<PageResult<CollectionTable>> {
  if (!listsAllContent(role)) return emptyPage;
  let base = db.selectFrom("collections").selectAll().where("organization_id", "=", organizationId);
  if (!nested) base = base.where("parent_id", "is", null);
  return keysetPage(base, { id: "string" }, query);
}

export async function insertCollection(db: Db, row: CollectionTable): Promise<CollectionTable> {
  await db.insertInto("collections").values(row).execute();
  return row;
}

/** Applies `changes`; an empty change writes nothing, so `updated_at` moves only when something does. */
export async function updateCollection(
  db: Db,
  collection: CollectionTable,
  changes: Partial<Pick<CollectionTable, "title" | "description" | "default_level">>,
  now: string,
): Promise<CollectionTable> {
  if (Object.keys(changes).length === 0) return collection;
  return db
    .updateTable("collections")
    .set({ ...changes, updated_at: now })
    .where("id", "=", collection.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getCollection(db: Db, id: string): Promise<CollectionTable> {
  return db.selectFrom("collections").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}
