import { type ExpressionBuilder, PostgresAdapter, sql } from "kysely";
import type { Db, Transaction } from "../db/database.js";
import { preparedRead } from "../db/prepared.js";
import type { Database } from "../db/schema.js";
import { EVENT_COLUMNS } from "./tables.js";

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
 * Events numbered in one transaction at most: on SQLite, whose transaction holds the event loop,
 * 256 cost 18–26 µs an event and hold it 4–12 ms; smaller batches cost more an event.
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
    const batch = await inNumberingTransaction(db, numberBatch);
    numbered += batch;
    if (batch < BATCH) break;
  }
  return numbered;
}

/**
 * Runs `work` in a transaction that sees one state of the tables throughout, alone among numberings.
 * SQLite: any transaction (one writer at a time). PostgreSQL: repeatable read, begun once the
 * advisory lock is held, so that its snapshot shows what the numbering before it did.
 */
async function inNumberingTransaction<T>(db: Db, work: (tx: Transaction) => Promise<T>): Promise<T> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return db.transaction().execute(work);
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${NUMBERING_LOCK})`.execute(connection);
    try {
      return await connection.transaction().setIsolationLevel("repeatable read").execute(work);
    } finally {
      await sql`select pg_advisory_unlock(${NUMBERING_LOCK})`.execute(connection);
    }
  });
}

/**
 * Numbers up to BATCH events, the first by position, and returns how many: in the database, which
 * reads them once (no row comes to the server and back).
 */
async function numberBatch(tx: Transaction): Promise<number> {
  const batch = await tx
    .selectFrom((eb) =>
      eb.selectFrom("unnumbered_events").select("position").orderBy("position").limit(BATCH).as("first"),
    )
    .select([(eb) => eb.fn.max("position").as("last"), (eb) => eb.fn.countAll().as("count")])
    .executeTakeFirstOrThrow();
  if (batch.last === null) return 0;
  const inBatch = (eb: ExpressionBuilder<Database, "unnumbered_events">) =>
    eb("unnumbered_events.position", "<=", batch.last as number);

  // Each organization's counter moved on by its events of the batch...
  await tx
    .insertInto("event_counters")
    .columns(["organization_id", "last_sequence"])
    .expression((eb) =>
      eb
        .selectFrom("unnumbered_events")
        .select(["organization_id", (e) => e.fn.countAll<number>().as("last_sequence")])
        .where(inBatch)
        .groupBy("organization_id"),
    )
    .onConflict((oc) =>
      oc.column("organization_id").doUpdateSet((eb) => ({
        last_sequence: eb("event_counters.last_sequence", "+", eb.ref("excluded.last_sequence")),
      })),
    )
    .execute();
  // ...and its events numbered up to it, in the order of their positions.
  await tx
    .insertInto("events")
    .columns([...EVENT_COLUMNS, "sequence"])
    .expression((eb) =>
      eb
        .selectFrom("unnumbered_events")
        .innerJoin("event_counters", "event_counters.organization_id", "unnumbered_events.organization_id")
        .select(EVENT_COLUMNS.map((column) => `unnumbered_events.${column}` as const))
        .select(
          sql<number>`event_counters.last_sequence
            - count(*) over (partition by unnumbered_events.organization_id)
            + row_number() over (partition by unnumbered_events.organization_id order by unnumbered_events.position)`.as(
            "sequence",
          ),
        )
        .where(inBatch),
    )
    .execute();
  await tx.deleteFrom("unnumbered_events").where(inBatch).execute();
  return Number(batch.count);
}
