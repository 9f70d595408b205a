import type { Db } from "../db/database.js";
import type { EventTable } from "./tables.js";

/**
 * Reading the event stream, for its consumers (webhooks, integrations). Events up to an
 * organization's last committed number are all committed (see `numberEvents`, which a reader calls
 * first to see those committed since), so a reader that goes by number misses none.
 */

/** The organization's events numbered after `afterSequence`, in order, at most `limit`. */
export function eventsAfter(
  db: Db,
  organizationId: string,
  afterSequence: number,
  limit: number,
): Promise<EventTable[]> {
  return db
    .selectFrom("events")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("sequence", ">", afterSequence)
    .orderBy("sequence")
    .limit(limit)
    .execute();
}

/** The number of the organization's last committed event; 0 before its first. */
export async function lastSequenceOf(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom("event_counters")
    .select("last_sequence")
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  return Number(row?.last_sequence ?? 0);
}

/** Events by id. */
export async function eventsById(db: Db, ids: readonly string[]): Promise<Map<string, EventTable>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("events")
    .selectAll()
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}
