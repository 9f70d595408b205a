import type { Db } from "../db/database.js";

/** Who reads the event stream by organization, each keeping its own place in it. */
export type EventConsumer = "webhooks" | "integrations";

/**
 * Moves `consumer`'s cursor in the organization from `from` (null: it has none yet) to `to`; throws
 * when another run moved it meanwhile, so that the consumer's transaction rolls back instead of
 * handing events on twice.
 */
export async function moveCursor(
  tx: Db,
  consumer: EventConsumer,
  organizationId: string,
  { from, to }: { from: number | null; to: number },
): Promise<void> {
  const result =
    from === null
      ? await tx
          .insertInto("event_cursors")
          .values({ consumer, organization_id: organizationId, last_sequence: to })
          .onConflict((oc) => oc.columns(["consumer", "organization_id"]).doNothing())
          .executeTakeFirst()
      : await tx
          .updateTable("event_cursors")
          .set({ last_sequence: to })
          .where("consumer", "=", consumer)
          .where("organization_id", "=", organizationId)
          .where("last_sequence", "=", from)
          .executeTakeFirst();
  const changed =
    "numInsertedOrUpdatedRows" in result ? result.numInsertedOrUpdatedRows : result.numUpdatedRows;
  if (Number(changed ?? 0) === 0)
    throw new Error(`The ${consumer} cursor of organization ${organizationId} was moved by another run`);
}
