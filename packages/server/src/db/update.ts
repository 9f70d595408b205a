import type { Db } from "./database.js";

/**
 * Applies `changes` to one row, found by id, and moves its `updated_at` to `now`. An empty change
 * writes nothing and returns the row as it was, so `updated_at` moves only when something does.
 */
export async function updateById<Row extends { id: string; updated_at: string }>(
  db: Db,
  table: "organizations" | "collections" | "spaces",
  row: Row,
  changes: Partial<Omit<Row, "id" | "updated_at">>,
  now: string,
): Promise<Row> {
  if (Object.keys(changes).length === 0) return row;
  const updated = await db
    .updateTable(table)
    .set({ ...changes, updated_at: now } as never)
    .where("id", "=", row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return updated as unknown as Row;
}
