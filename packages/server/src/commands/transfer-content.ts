import { endPosition, lockContentTree, subtreeCollectionIds } from "../content/tree.js";
import type { Transaction } from "../db/database.js";
import type { CollectionTable, SpaceTable } from "../db/schema.js";
import { unlinkSpaces } from "../site-spaces/index.js";

/**
 * Custom fields and sites belong to an organization: a space that leaves it leaves their values and
 * its place in its sites behind, and starts in its new organization without any.
 */
async function dropOrganizationSettings(tx: Transaction, spaceIds: readonly string[]): Promise<void> {
  if (spaceIds.length === 0) return;
  await tx.deleteFrom("space_custom_field_values").where("space_id", "in", spaceIds).execute();
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
  await tx
    .updateTable("collections")
    .set({ organization_id: targetOrganizationId })
    .where("id", "in", subtree)
    .execute();
  const moved = await tx
    .updateTable("spaces")
    .set({ organization_id: targetOrganizationId })
    .where("parent_id", "in", subtree)
    .returning("id")
    .execute();
  await dropOrganizationSettings(
    tx,
    moved.map(({ id }) => id),
  );
  await tx
    .updateTable("collections")
    .set({ parent_id: null, position, updated_at: now })
    .where("id", "=", collection.id)
    .execute();
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
  return tx
    .updateTable("spaces")
    .set({
      organization_id: targetOrganizationId,
      parent_id: null,
      position: await endPosition(tx, targetOrganizationId, null),
      updated_at: now,
    })
    .where("id", "=", space.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
