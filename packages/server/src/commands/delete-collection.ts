import { endPosition, lockContentTree } from "../content/tree.js";
import type { Transaction } from "../db/database.js";
import type { CollectionTable } from "../db/schema.js";

/**
 * Deletes a collection without losing anything inside it: its child collections and spaces move up
 * to its parent, after the parent's other children, in their order.
 */
export async function deleteCollection(tx: Transaction, collection: CollectionTable): Promise<void> {
  const org = collection.organization_id;
  await lockContentTree(tx, [org]);
  let position = await endPosition(tx, org, collection.parent_id);
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
  await tx.deleteFrom("collections").where("id", "=", collection.id).execute();
}
