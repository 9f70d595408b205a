import { asMemberContent } from "../content/tree.js";
import type { Db } from "../db/database.js";
import type { CollectionTable, Role } from "../db/schema.js";
import { keysetPage, type PageQuery } from "../http/paging.js";

export interface MemberCollection {
  collection: CollectionTable;
  /** The caller's effective role on the collection. */
  role: Role;
  organizationRole: Role;
}

/** The collection with the caller's role on it; 404 when missing or in an organization the caller is not in. */
export async function collectionForMember(
  db: Db,
  collectionId: string,
  userId: string,
): Promise<MemberCollection> {
  const row = await db
    .selectFrom("collections")
    .innerJoin("memberships", "memberships.organization_id", "collections.organization_id")
    .selectAll("collections")
    .select("memberships.role")
    .where("collections.id", "=", collectionId)
    .where("memberships.user_id", "=", userId)
    .executeTakeFirst();
  const { row: collection, ...roles } = asMemberContent<CollectionTable>(row, "Collection");
  return { collection, ...roles };
}

export function listCollections(db: Db, organizationId: string, nested: boolean, query: PageQuery) {
  let base = db.selectFrom("collections").selectAll().where("organization_id", "=", organizationId);
  if (!nested) base = base.where("parent_id", "is", null);
  return keysetPage(base, ["id"], query);
}

export async function insertCollection(db: Db, row: CollectionTable): Promise<CollectionTable> {
  await db.insertInto("collections").values(row).execute();
  return row;
}

export function updateCollection(
  db: Db,
  id: string,
  changes: Partial<Omit<CollectionTable, "id">>,
): Promise<CollectionTable> {
  return db
    .updateTable("collections")
    .set(changes)
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getCollection(db: Db, id: string): Promise<CollectionTable> {
  return db.selectFrom("collections").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** Ids of every collection nested (at any depth) inside `rootId`, the root included. */
export async function subtreeCollectionIds(
  db: Db,
  organizationId: string,
  rootId: string,
): Promise<string[]> {
  const all = await db
    .selectFrom("collections")
    .select(["id", "parent_id"])
    .where("organization_id", "=", organizationId)
    .execute();
  const childrenOf = new Map<string, string[]>();
  for (const c of all) {
    if (c.parent_id === null) continue;
    childrenOf.set(c.parent_id, [...(childrenOf.get(c.parent_id) ?? []), c.id]);
  }
  const ids: string[] = [];
  const pending = [rootId];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    ids.push(id);
    pending.push(...(childrenOf.get(id) ?? []));
  }
  return ids;
}
