import type { Schema } from "@quire/api-types";
import { sql } from "kysely";
import { canCreateInCollection } from "../collections/policy.js";
import type { Db } from "../db/database.js";
import type { Role } from "../db/schema.js";
import { badRequest, conflict, notFound } from "../http/errors.js";
import { canCreateContent } from "../organizations/policy.js";
import { authorize, contentRole } from "../policy.js";

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
 * Checks that the caller may create content under `parentId` (a collection of the organization, or
 * its top level when null): 400 for a parent that does not exist there, 403 for a role too low.
 */
export async function authorizeCreateUnder(
  db: Db,
  organizationId: string,
  organizationRole: Role,
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
    canCreateInCollection(contentRole(organizationRole, parent.default_level)),
    "create content in this collection",
  );
}

/** A move that names neither a parent nor a position would change nothing: 409, as for GitBook. */
export function assertMoveChangesSomething(move: Schema<"ContentMoveRequest">): void {
  if (move.parent === undefined && move.position === undefined) {
    throw conflict("The move names neither a new parent nor a position, so nothing would change.");
  }
}

/** A collection or space as the caller sees it: the row, their organization role and their role on it. */
export interface MemberContent<Row> {
  row: Row;
  organizationRole: Role;
  role: Role;
}

/**
 * The result of a lookup that joined the caller's membership (selecting `memberships.role`): 404 when
 * nothing came back (missing, or in an organization the caller is not in), else the caller's roles.
 */
export function asMemberContent<Row extends { default_level: Role }>(
  found: (Row & { role: Role }) | undefined,
  what: string,
): MemberContent<Row> {
  if (!found) throw notFound(what);
  const { role: organizationRole, ...row } = found;
  return {
    row: row as unknown as Row,
    organizationRole,
    role: contentRole(organizationRole, row.default_level),
  };
}
