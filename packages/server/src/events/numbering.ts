import { PostgresAdapter, sql } from "kysely";
import type { Db, Transaction } from "../db/database.js";
import { preparedRead } from "../db/prepared.js";

/**
 * Events are numbered 1, 2, 3… per organization after their transactions commit: `recordEvent`
 * inserts an event into `unnumbered_events`, and numbering moves the committed ones into `events` in
 * the order of their positions, one numbering at a time (on PostgreSQL, whatever the number of
 * servers, under an advisory lock). A write so locks no counter row until its commit ends, and a
 * number is never given to an event that could still be rolled back.
 *
 * The numbers follow commit order wherever order means something. A transaction that depends on
 * another (it changes a row the other changed, or reads what the other committed) records its event
 * after the other committed, so its position is later, and whenever it is seen committed, so is the
 * other. Transactions that positions order otherwise than their commits ran side by side, touching
 * nothing of each other's, so either order is one they could have run in. And each numbering commits
 * before the next begins, so a reader that has seen number n has seen all before it.
 */

/**
 * Events numbered in one transaction at most: 25 µs an event on SQLite, whose transaction holds the
 * event loop (7 ms for 256), against 46 µs in batches of 64.
 */
const BATCH = 256;
/** The key of PostgreSQL's advisory lock that numbering holds: a number no other lock of Quire's uses. */
const NUMBERING_LOCK = 4_206_113_019;

const anyUnnumbered = preparedRead((db) => db.selectFrom("unnumbered_events").select("position").limit(1));

/**
 * Numbers the events committed so far, and returns how many. Whoever reads the stream calls it first,
 * outside any transaction: the fan-outs of webhooks and integrations, the audit log, a webhook's
 * start (which takes the events after the last number).
 */
export async function numberEvents(db: Db): Promise<number> {
  let numbered = 0;
  while ((await anyUnnumbered(db, {})).length > 0) {
    const batch = await db.transaction().execute(numberBatch);
    numbered += batch;
    if (batch < BATCH) break;
  }
  return numbered;
}

/** Numbers up to BATCH events, the first by position; returns how many. */
async function numberBatch(tx: Transaction): Promise<number> {
  if (tx.getExecutor().adapter instanceof PostgresAdapter)
    await sql`select pg_advisory_xact_lock(${NUMBERING_LOCK})`.execute(tx);
  // Deleted and returned by one statement: on PostgreSQL a statement after it could see events
  // committed since, which this batch would not number.
  const taken = await tx
    .deleteFrom("unnumbered_events")
    .where("position", "in", (eb) =>
      eb.selectFrom("unnumbered_events").select("position").orderBy("position").limit(BATCH),
    )
    .returningAll()
    .execute();
  if (taken.length === 0) return 0;
  taken.sort((a, b) => Number(a.position) - Number(b.position));

  const counts = new Map<string, number>();
  for (const event of taken) counts.set(event.organization_id, (counts.get(event.organization_id) ?? 0) + 1);
  const counters = await tx
    .insertInto("event_counters")
    .values([...counts].map(([organization_id, count]) => ({ organization_id, last_sequence: count })))
    .onConflict((oc) =>
      oc.column("organization_id").doUpdateSet((eb) => ({
        last_sequence: eb("event_counters.last_sequence", "+", eb.ref("excluded.last_sequence")),
      })),
    )
    .returning(["organization_id", "last_sequence"])
    .execute();
  // Each organization's last number before this batch, from which its events here go on.
  const last = new Map(
    counters.map((c) => [c.organization_id, Number(c.last_sequence) - (counts.get(c.organization_id) ?? 0)]),
  );
  await tx
    .insertInto("events")
    .values(
      taken.map(({ position: _, ...event }) => {
        const sequence = (last.get(event.organization_id) ?? 0) + 1;
        last.set(event.organization_id, sequence);
        return { ...event, sequence };
      }),
    )
    .execute();
  return taken.length;
}
