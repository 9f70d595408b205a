import { type SqlBool, sql } from "kysely";
import { type ContentAccess, contentAccess, contentGrant, contentWithCaller, grantAware } from "../access.js";
import { promoteChildren } from "../content/tree.js";
import type { Db, Transaction } from "../db/database.js";
import type { CollectionTable } from "../db/schema.js";
import { updateById } from "../db/update.js";
import { keysetList, type PageQuery } from "../http/paging.js";
import type { OrganizationRole } from "../policy.js";

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

/**
 * The collections of an organization (at any depth, or at its top level only), by id, as listed by a
 * member (all of them) or by a guest (those granted to them). The caller's role is known already (the
 * access rule read it), so no row asks for it again.
 */
const collectionsListedBy = (guest: boolean, topLevel: boolean) =>
  grantAware((withGrants) =>
    keysetList(
      (db, args: { organizationId: string; userId: string }) => {
        let query = db
          .selectFrom("collections")
          .selectAll()
          .select(collectionGrant(withGrants, args.userId).as("caller_grant"))
          .where("organization_id", "=", args.organizationId);
        if (topLevel) query = query.where("parent_id", "is", null);
        return guest
          ? query.where(sql<SqlBool>`${collectionGrant(withGrants, args.userId)} is not null`)
          : query;
      },
      { id: "string" },
    ),
  );
const listed = {
  member: { all: collectionsListedBy(false, false), topLevel: collectionsListedBy(false, true) },
  guest: { all: collectionsListedBy(true, false), topLevel: collectionsListedBy(true, true) },
};

/** The collections of an organization the caller lists, for their role there (null: a guest). */
export function listCollectionsInOrganization(
  db: Db,
  args: { organizationId: string; userId: string; role: OrganizationRole; topLevelOnly: boolean },
  query: PageQuery,
) {
  const { role, topLevelOnly, ...ids } = args;
  const lists = role === null ? listed.guest : listed.member;
  return (topLevelOnly ? lists.topLevel : lists.all)(db, ids, query);
}

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
