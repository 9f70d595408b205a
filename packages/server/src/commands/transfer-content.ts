import { updateCollection } from "../collections/index.js";
import {
  endPosition,
  lockContentTree,
  moveToOrganization,
  settleInheritedLevels,
  subtreeCollectionIds,
} from "../content/tree.js";
import { dropSpaceFieldValues } from "../custom-fields/index.js";
import type { Transaction } from "../db/database.js";
import type { CollectionTable, SpaceTable } from "../db/schema.js";
import { unlinkSpaces } from "../sites/index.js";
import { getSpace, updateSpace } from "../spaces/index.js";

/**
 * Custom fields and sites belong to an organization: a space that leaves it leaves their values and
 * its place in its sites behind, and starts in its new organization without any.
 */
async function dropOrganizationSettings(tx: Transaction, spaceIds: readonly string[]): Promise<void> {
  if (spaceIds.length === 0) return;
  await dropSpaceFieldValues(tx, spaceIds);
  await unlinkSpaces(tx, spaceIds);
}

/**
 * Moves a collection to the top level of another organization with everything inside it: nested
 * collections and every space in them, deleted ones included.
 */
export async function transferCollection(
  tx: Transaction,
  collection: CollectionTable,
  targetOrganizationId: string,
  now: string,
): Promise<void> {
  await lockContentTree(tx, [collection.organization_id, targetOrganizationId]);
  const subtree = await subtreeCollectionIds(tx, collection.organization_id, collection.id);
  const position = await endPosition(tx, targetOrganizationId, null);
  await dropOrganizationSettings(tx, await moveToOrganization(tx, subtree, targetOrganizationId));
  await updateCollection(tx, collection, { parent_id: null, position }, now);
  await settleInheritedLevels(tx, targetOrganizationId);
}

/** Moves a space to the top level of another organization. */
export async function transferSpace(
  tx: Transaction,
  space: SpaceTable,
  targetOrganizationId: string,
  now: string,
): Promise<SpaceTable> {
  await lockContentTree(tx, [space.organization_id, targetOrganizationId]);
  await dropOrganizationSettings(tx, [space.id]);
  const position = await endPosition(tx, targetOrganizationId, null);
  const moved = await updateSpace(
    tx,
    space,
    { organization_id: targetOrganizationId, parent_id: null, position },
    now,
  );
  await settleInheritedLevels(tx, targetOrganizationId);
  return moved.default_level_inherited === 1 ? getSpace(tx, space.id) : moved;
}
