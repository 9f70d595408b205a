import {
  type ContentAccess,
  callerMembership,
  contentAccess,
  contentGrant,
  contentWithCaller,
  grantAware,
  listsContent,
} from "../access.js";
import { promoteChildren } from "../content/tree.js";
import type { Db, Transaction } from "../db/database.js";
import type { CollectionTable } from "../db/schema.js";
import { updateById } from "../db/update.js";
import { keysetList } from "../http/paging.js";

const collectionGrant = (withGrants: boolean, userId: string) =>
  contentGrant("collections", withGrants, userId);

export type MemberCollection = Omit<ContentAccess<CollectionTable>, "row"> & { collection: CollectionTable };

const collectionWithMembership = contentWithCaller("collections");

/** The collection with the caller's role on it, in one statement; 404 when missing or not visible to the caller. */
export async function collectionForCaller(
  db: Db,
  collectionId: string,
  userId: string,
): Promise<MemberCollection> {
  const [found] = await collectionWithMembership(db, { id: collectionId, userId });
  const { row: collection, ...access } = contentAccess(found, "Collection");
  return { collection, ...access };
}

const collectionsListedBy =
  (withGrants: boolean) => (db: Db, args: { organizationId: string; userId: string }) =>
    db
      .selectFrom("collections")
      .selectAll()
      .select(callerMembership(args.userId, args.organizationId).as("caller_membership"))
      .select(collectionGrant(withGrants, args.userId).as("caller_grant"))
      .where("organization_id", "=", args.organizationId)
      .where(listsContent(args.userId, args.organizationId, collectionGrant(withGrants, args.userId)));

/** Every collection of an organization the caller may list, at any depth, by id. */
export const listAllCollections = grantAware((withGrants) =>
  keysetList(collectionsListedBy(withGrants), { id: "string" }),
);

/** The collections at the top level of an organization the caller may list, by id. */
export const listTopLevelCollections = grantAware((withGrants) =>
  keysetList(
    (db, args: { organizationId: string; userId: string }) =>
      collectionsListedBy(withGrants)(db, args).where("parent_id", "is", null),
    { id: "string" },
  ),
);

export async function insertCollection(db: Db, row: CollectionTable): Promise<CollectionTable> {
  await db.insertInto("collections").values(row).execute();
  return row;
}

/** See `updateById`: an empty change writes nothing. */
export function updateCollection(
  db: Db,
  collection: CollectionTable,
  changes: Partial<
    Pick<CollectionTable, "title" | "description" | "default_level" | "parent_id" | "position">
  >,
  now: string,
): Promise<CollectionTable> {
  return updateById(db, "collections", collection, changes, now);
}

export async function getCollection(db: Db, id: string): Promise<CollectionTable> {
  return db.selectFrom("collections").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/**
 * Deletes a collection without losing anything inside it: its child collections and spaces move up
 * to its parent (see `promoteChildren`).
 */
export async function deleteCollection(tx: Transaction, collection: CollectionTable): Promise<void> {
  await promoteChildren(tx, collection);
  await tx.deleteFrom("collections").where("id", "=", collection.id).execute();
}
