import type { Schema } from "@quire/api-types";
import { SqliteAdapter, sql } from "kysely";
import type { Db, Transaction } from "../db/database.js";
import type { CollectionTable, Role } from "../db/schema.js";
import { badRequest, conflict } from "../http/errors.js";
import {
  authorize,
  canCreateContent,
  canCreateInCollection,
  type OrganizationRole,
  roleOnContent,
} from "../policy.js";

/**
 * The content tree of an organization: collections and spaces share one ordering (`position`) among
 * the children of a parent collection, or of the organization's top level when the parent is null.
 */
export type ContentKind = "collection" | "space";

interface Sibling {
  kind: ContentKind;
  id: string;
}

type Position = Schema<"ContentPointerPosition">;
type Pointer = Schema<"ContentPointer">;

const tableOf = { collection: "collections", space: "spaces" } as const;

function pointerTarget(pointer: Pointer): Sibling {
  return pointer.type === "space"
    ? { kind: "space", id: pointer.space }
    : { kind: "collection", id: pointer.collection };
}

const sameItem = (a: Sibling, b: Sibling) => a.kind === b.kind && a.id === b.id;

async function siblingsOf(db: Db, organizationId: string, parentId: string | null): Promise<Sibling[]> {
  const children = (table: "collections" | "spaces") =>
    db
      .selectFrom(table)
      .select(["id", "position"])
      .where("organization_id", "=", organizationId)
      .where((eb) => (parentId === null ? eb("parent_id", "is", null) : eb("parent_id", "=", parentId)));
  const [collections, spaces] = await Promise.all([
    children("collections").execute(),
    children("spaces").execute(),
  ]);
  return [
    ...collections.map((c) => ({ kind: "collection" as const, id: c.id, position: c.position })),
    ...spaces.map((s) => ({ kind: "space" as const, id: s.id, position: s.position })),
  ]
    .sort((a, b) => a.position - b.position || a.id.localeCompare(b.id))
    .map(({ kind, id }) => ({ kind, id }));
}

/** The position after every current child of `parentId`. */
export async function endPosition(db: Db, organizationId: string, parentId: string | null): Promise<number> {
  const highest = (table: "collections" | "spaces") =>
    db
      .selectFrom(table)
      .select(sql<number | null>`max(position)`.as("max"))
      .where("organization_id", "=", organizationId)
      .where((eb) => (parentId === null ? eb("parent_id", "is", null) : eb("parent_id", "=", parentId)))
      .executeTakeFirstOrThrow();
  const [collections, spaces] = await Promise.all([highest("collections"), highest("spaces")]);
  return Math.max(Number(collections.max ?? -1), Number(spaces.max ?? -1)) + 1;
}

/**
 * Puts `item` among the children of `parentId` before or after a sibling (at the end without a
 * position) and renumbers the children. Call inside a transaction with the item already under `parentId`.
 */
export async function placeAmongSiblings(
  db: Db,
  organizationId: string,
  parentId: string | null,
  item: Sibling,
  position: Position | undefined,
): Promise<void> {
  const siblings = (await siblingsOf(db, organizationId, parentId)).filter((s) => !sameItem(s, item));
  let index = siblings.length;
  const anchor = position?.before ?? position?.after;
  if (anchor) {
    const target = pointerTarget(anchor);
    if (sameItem(target, item)) throw badRequest("An item cannot be positioned relative to itself.");
    const found = siblings.findIndex((s) => sameItem(s, target));
    if (found < 0) {
      throw badRequest(
        `The ${target.kind} "${target.id}" of the position is not a sibling under the target parent.`,
      );
    }
    index = position?.before ? found : found + 1;
  }
  siblings.splice(index, 0, item);
  for (const [i, sibling] of siblings.entries()) {
    await db.updateTable(tableOf[sibling.kind]).set({ position: i }).where("id", "=", sibling.id).execute();
  }
}

/**
 * Serializes changes to the content trees of these organizations (creating, moving, deleting or
 * transferring collections and spaces) until the transaction ends: positions among siblings stay
 * unique, and no two concurrent moves can make a cycle. PostgreSQL locks the organization rows, in
 * id order so two transfers never deadlock; SQLite runs one write transaction at a time anyway.
 */
export async function lockContentTree(tx: Db, organizationIds: readonly string[]): Promise<void> {
  if (tx.getExecutor().adapter instanceof SqliteAdapter) return;
  await tx
    .selectFrom("organizations")
    .select("id")
    .where("id", "in", [...organizationIds].sort())
    .orderBy("id")
    // Not FOR UPDATE: rows referencing the organization (its events) take KEY SHARE on it, which
    // FOR UPDATE would block, in the middle of a writer holding its organization's event counter.
    .forNoKeyUpdate()
    .execute();
}

/**
 * The columns a requested `defaultLevel` sets: a role, or GitBook's `inherit`, whose level
 * `settleInheritedLevels` then sets.
 */
export function defaultLevelColumns(
  level: Role | "inherit" | undefined,
): Partial<Pick<CollectionTable, "default_level" | "default_level_inherited">> {
  if (level === undefined) return {};
  return level === "inherit"
    ? { default_level_inherited: 1 }
    : { default_level: level, default_level_inherited: 0 };
}

/** A collection's or space's `defaultLevel` as the contract shows it: `inherit` when it follows its parent. */
export const presentedDefaultLevel = (
  row: Pick<CollectionTable, "default_level" | "default_level_inherited">,
) => (row.default_level_inherited === 1 ? ("inherit" as const) : row.default_level);

/**
 * Brings the levels of the organization's content that inherits its level (GitBook's `inherit`,
 * `default_level_inherited`) up to date: each takes its parent collection's `default_level`, and
 * at the top level `read`, the least a member holds anyway. Two statements, whatever the tree's
 * size: collections from the top down, then spaces. After any change of a level or of the tree,
 * under `lockContentTree`, so that no concurrent change is missed.
 */
export async function settleInheritedLevels(tx: Db, organizationId: string): Promise<void> {
  await sql`with recursive levels(id, level) as (
      select id, case when default_level_inherited = 1 then 'read' else default_level end
      from collections where organization_id = ${organizationId} and parent_id is null
      union all
      select c.id, case when c.default_level_inherited = 1 then l.level else c.default_level end
      from collections c inner join levels l on c.parent_id = l.id
    )
    update collections set default_level = (select level from levels where levels.id = collections.id)
    where organization_id = ${organizationId} and default_level_inherited = 1
      and default_level <> (select level from levels where levels.id = collections.id)`.execute(tx);
  const parentLevel = sql`coalesce((select c.default_level from collections c where c.id = spaces.parent_id), 'read')`;
  await sql`update spaces set default_level = ${parentLevel}
    where organization_id = ${organizationId} and default_level_inherited = 1
      and default_level <> ${parentLevel}`.execute(tx);
}

/**
 * Checks that the caller may create content under `parentId` (a collection of the organization, or
 * its top level when null): 400 for a parent that does not exist there, 403 for a role too low.
 * Inside a transaction, after `lockContentTree`, so the parent cannot vanish before the insert.
 */
export async function authorizeCreateUnder(
  db: Db,
  organizationId: string,
  organizationRole: OrganizationRole,
  parentId: string | null,
): Promise<void> {
  if (parentId === null) {
    authorize(canCreateContent(organizationRole), "create content in this organization");
    return;
  }
  const parent = await db
    .selectFrom("collections")
    .select("default_level")
    .where("id", "=", parentId)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  if (!parent) throw badRequest(`Parent collection "${parentId}" does not exist in this organization.`);
  authorize(
    canCreateInCollection(roleOnContent(organizationRole, parent.default_level)),
    "create content in this collection",
  );
}

/** A move that names neither a parent nor a position would change nothing: 409, as for GitBook. */
export function assertMoveChangesSomething(move: Schema<"ContentMoveRequest">): void {
  if (move.parent === undefined && move.position === undefined) {
    throw conflict("The move names neither a new parent nor a position, so nothing would change.");
  }
}

/**
 * Ids of every collection nested (at any depth) inside `rootId`, the root included. The walk visits
 * each collection once, so even a corrupt tree with a cycle cannot make it loop.
 */
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
  const seen = new Set<string>();
  const pending = [rootId];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    pending.push(...(childrenOf.get(id) ?? []));
  }
  return [...seen];
}

/** 400 when moving a collection under itself or one of its descendants. Under `lockContentTree`. */
export async function assertNotIntoItself(
  tx: Db,
  organizationId: string,
  collectionId: string,
  parentId: string | null,
): Promise<void> {
  if (
    parentId !== null &&
    (await subtreeCollectionIds(tx, organizationId, collectionId)).includes(parentId)
  ) {
    throw badRequest("A collection cannot be moved into itself or one of its descendants.");
  }
}

/**
 * Moves the children of a collection about to be deleted up to its parent, after the parent's other
 * children, in their order: deleting a collection loses nothing inside it. Takes `lockContentTree`.
 */
export async function promoteChildren(tx: Transaction, collection: CollectionTable): Promise<void> {
  const organizationId = collection.organization_id;
  await lockContentTree(tx, [organizationId]);
  let position = await endPosition(tx, organizationId, collection.parent_id);
  for (const table of ["collections", "spaces"] as const) {
    const children = await tx
      .selectFrom(table)
      .select("id")
      .where("parent_id", "=", collection.id)
      .orderBy("position")
      .execute();
    for (const child of children) {
      await tx
        .updateTable(table)
        .set({ parent_id: collection.parent_id, position: position++ })
        .where("id", "=", child.id)
        .execute();
    }
  }
  await settleInheritedLevels(tx, organizationId);
}

/**
 * Moves the collections `collectionIds`, and every space directly inside one of them, into the content
 * tree of organization `organizationId` (the caller places the subtree's root there); returns the ids of
 * the spaces moved. Under `lockContentTree` of both organizations.
 */
export async function moveToOrganization(
  tx: Transaction,
  collectionIds: readonly string[],
  organizationId: string,
): Promise<string[]> {
  await tx
    .updateTable("collections")
    .set({ organization_id: organizationId })
    .where("id", "in", collectionIds)
    .execute();
  const moved = await tx
    .updateTable("spaces")
    .set({ organization_id: organizationId })
    .where("parent_id", "in", collectionIds)
    .returning("id")
    .execute();
  return moved.map(({ id }) => id);
}
