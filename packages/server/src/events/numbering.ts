import { type OnConflictBuilder, PostgresAdapter, type QueryCreator, sql } from "kysely";
import type { Db } from "../db/database.js";
import { preparedRead, preparedWrite } from "../db/prepared.js";
import type { Database } from "../db/schema.js";
import { vacuumEvery } from "../db/vacuum.js";
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
 * Events numbered in one transaction at most. SQLite's transaction holds the event loop: 256 cost
 * 18–26 µs an event and hold it 4–12 ms; smaller batches cost more an event. PostgreSQL's leaves it
 * free, and a batch's own cost (its transaction, its commit's flush, the statement's fixed part) is
 * spread over more events: numbering 1,000 queued events, 16 times, took 16–17 µs of PostgreSQL's
 * CPU and 22–24 µs an event in batches of 1,024, against 23 µs and 34 µs in batches of 256 (two
 * runs of each, alternated).
 */
const SQLITE_BATCH = 256;
const POSTGRES_BATCH = 1024;
/** The key of PostgreSQL's advisory lock that numbering holds: a number no other lock of Quire's uses. */
const NUMBERING_LOCK = 4_206_113_019;

// By the index, in order: on PostgreSQL, a scan of the table reads the dead rows of what numbering
// moved since the last vacuum, and the planner chose one while the table's statistics were stale.
const anyUnnumbered = preparedRead((db) =>
  db.selectFrom("unnumbered_events").select("position").orderBy("position").limit(1),
);

/**
 * Numbering deletes every row it moves: each time it has moved 4,096, the queue is vacuumed (on
 * PostgreSQL), which takes 1–3 ms for 2,000–10,000 dead rows. Without it, after 18,000 events, each
 * look for unnumbered events read 361 pages of dead rows (0.35 ms) to find none, and more with every
 * event.
 */
const vacuumQueue = vacuumEvery("unnumbered_events", 4_096);

/**
 * Numbers the events committed so far, and returns how many. Whoever reads the stream calls it first,
 * outside any transaction: the fan-outs of webhooks and integrations, the audit log, a webhook's
 * start (which takes the events after the last number).
 */
export async function numberEvents(db: Db): Promise<number> {
  const [numberBatch, size] =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? [numberBatchOnPostgres, POSTGRES_BATCH]
      : [numberBatchOnSqlite, SQLITE_BATCH];
  let numbered = 0;
  while ((await anyUnnumbered(db, {})).length > 0) {
    const batch = await numberBatch(db);
    numbered += batch;
    // In the loop: each batch of a backlog would otherwise walk all those moved before it (a backlog
    // of 100,000 took 3.4 s with one vacuum at the end, 2.7 s so).
    await vacuumQueue(db, batch);
    if (batch < size) break;
  }
  return numbered;
}

/** The batch: the positions of the first `size` events. */
const firstPositions = (db: QueryCreator<Database>, size: number) =>
  db.selectFrom("unnumbered_events").select("position").orderBy("position").limit(size).as("first");

/**
 * The number of each event of `source` (the batch): after its organization's counter, moved on by
 * the batch's events, in the order of their positions.
 */
const sequenceIn = (source: string) =>
  sql<number>`counters.last_sequence
    - count(*) over (partition by ${sql.ref(`${source}.organization_id`)})
    + row_number() over (partition by ${sql.ref(`${source}.organization_id`)} order by ${sql.ref(`${source}.position`)})`.as(
    "sequence",
  );

/**
 * PostgreSQL: a batch numbered by one statement, which takes the events out of `unnumbered_events`,
 * moves the counters on and inserts the numbered events, reading the batch once; run under an
 * advisory lock taken in the transaction before it, so that its snapshot shows what the numbering
 * before it committed, whatever the number of servers.
 */
function numberBatchOnPostgres(db: Db): Promise<number> {
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(NUMBERING_LOCK)})`.execute(tx);
    const [numbered] = await numberBatchInOneStatement(tx, {});
    return Number(numbered?.count ?? 0);
  });
}

const numberBatchInOneStatement = preparedWrite((db) =>
  db
    .with("batch", (db) =>
      db
        .deleteFrom("unnumbered_events")
        .where("position", "<=", (eb) =>
          eb.selectFrom(firstPositions(db, POSTGRES_BATCH)).select((eb) => eb.fn.max("position").as("last")),
        )
        .returningAll(),
    )
    .with("counters", (db) =>
      db
        .insertInto("event_counters")
        .columns(["organization_id", "last_sequence"])
        .expression((eb) =>
          eb
            .selectFrom("batch")
            .select(["organization_id", (e) => e.fn.countAll<number>().as("last_sequence")])
            .groupBy("organization_id"),
        )
        .onConflict(countersMovedOn)
        .returning(["organization_id", "last_sequence"]),
    )
    .with("numbered", (db) =>
      db
        .insertInto("events")
        .columns([...EVENT_COLUMNS, "sequence"])
        .expression((eb) =>
          eb
            .selectFrom("batch")
            .innerJoin("counters", "counters.organization_id", "batch.organization_id")
            .select(EVENT_COLUMNS.map((column) => `batch.${column}` as const))
            .select(sequenceIn("batch")),
        )
        .returning("id"),
    )
    .selectFrom("numbered")
    .select((eb) => eb.fn.countAll().as("count")),
);

/** A counter moved on by the count it is inserted with, when it exists. */
const countersMovedOn = (oc: OnConflictBuilder<Database, "event_counters">) =>
  oc.column("organization_id").doUpdateSet((eb) => ({
    last_sequence: eb("event_counters.last_sequence", "+", eb.ref("excluded.last_sequence")),
  }));

/**
 * SQLite, one writer at a time: the batch's last position, then three statements (its DELETE takes
 * no part in a WITH): the counters moved on, the events numbered, the batch deleted.
 */
function numberBatchOnSqlite(db: Db): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const [batch] = await lastOfBatch(tx, {});
    if (batch?.last == null) return 0;
    // A number: the rowid.
    const last = { last: Number(batch.last) };
    await moveCountersOn(tx, last);
    await insertNumbered(tx, last);
    await deleteNumbered(tx, last);
    return Number(batch.count);
  });
}

// A read, compiled as the writes are: once, then run in the transaction it is given.
const lastOfBatch = preparedWrite((db) =>
  db
    .selectFrom(firstPositions(db, SQLITE_BATCH))
    .select([(eb) => eb.fn.max("position").as("last"), (eb) => eb.fn.countAll().as("count")]),
);

const moveCountersOn = preparedWrite((db, { last }: { last: number }) =>
  db
    .insertInto("event_counters")
    .columns(["organization_id", "last_sequence"])
    .expression((eb) =>
      eb
        .selectFrom("unnumbered_events")
        .select(["organization_id", (e) => e.fn.countAll<number>().as("last_sequence")])
        .where("position", "<=", last)
        .groupBy("organization_id"),
    )
    .onConflict(countersMovedOn),
);

const insertNumbered = preparedWrite((db, { last }: { last: number }) =>
  db
    .insertInto("events")
    .columns([...EVENT_COLUMNS, "sequence"])
    .expression((eb) =>
      eb
        .selectFrom("unnumbered_events")
        .innerJoin(
          "event_counters as counters",
          "counters.organization_id",
          "unnumbered_events.organization_id",
        )
        .select(EVENT_COLUMNS.map((column) => `unnumbered_events.${column}` as const))
        .select(sequenceIn("unnumbered_events"))
        .where("unnumbered_events.position", "<=", last),
    ),
);

const deleteNumbered = preparedWrite((db, { last }: { last: number }) =>
  db.deleteFrom("unnumbered_events").where("position", "<=", last),
);
