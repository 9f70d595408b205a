import { sql } from "kysely";
import { type ContentAccess, callerMembership, contentAccess, listsAllContent } from "../access.js";
import type { Db } from "../db/database.js";
import { preparedRead } from "../db/prepared.js";
import type { CollectionTable } from "../db/schema.js";
import { updateById } from "../db/update.js";
import { keysetList } from "../http/paging.js";

export type MemberCollection = Omit<ContentAccess<CollectionTable>, "row"> & { collection: CollectionTable };

const collectionWithMembership = preparedRead((db, args: { collectionId: string; userId: string }) =>
  db
    .selectFrom("collections")
    .selectAll()
    .select(callerMembership(args.userId, sql.ref("collections.organization_id")).as("caller_membership"))
    .where("id", "=", args.collectionId),
);

/** The collection with the caller's role on it, in one statement; 404 when missing or not visible to the caller. */
export async function collectionForMember(
  db: Db,
  collectionId: string,
  userId: string,
): Promise<MemberCollection> {
  const [found] = await collectionWithMembership(db, { collectionId, userId });
  const { row: collection, ...access } = contentAccess(found, "Collection");
  return { collection, ...access };
}

const collectionsListedBy = (db: Db, args: { organizationId: string; userId: string }) =>
  db
    .selectFrom("collections")
    .selectAll()
    .select(callerMembership(args.userId, args.organizationId).as("caller_membership"))
    .where("organization_id", "=", args.organizationId)
    .where(listsAllContent(args.userId, args.organizationId));

/** Every collection of an organization the caller may list, at any depth, by id. */
export const listAllCollections = keysetList(collectionsListedBy, { id: "string" });

/** The collections at the top level of an organization the caller may list, by id. */
export const listTopLevelCollections = keysetList(
  (db, args: { organizationId: string; userId: string }) =>
    collectionsListedBy(db, args).where("parent_id", "is", null),
  { id: "string" },
);

export async function insertCollection(db: Db, row: CollectionTable): Promise<CollectionTable> {
  await db.insertInto("collections").values(row).execute();
  return row;
}

/** See `updateById`: an empty change writes nothing. */
export function updateCollection(
  db: Db,
  collection: CollectionTable,
  changes: Partial<Pick<CollectionTable, "title" | "description" | "default_level">>,
  now: string,
): Promise<CollectionTable> {
  return updateById(db, "collections", collection, changes, now);
}

export async function getCollection(db: Db, id: string): Promise<CollectionTable> {
  return db.selectFrom("collections").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}
