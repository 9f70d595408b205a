import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization } from "../commands/create-organization.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { type Db, migrate, openDatabase } from "../db/database.js";
import { openTestDatabase, type TestDatabase, testDatabaseKind } from "../testing/database.js";
import { createUser } from "../users/index.js";
import { numberEvents } from "./numbering.js";
import { recordEvent } from "./record.js";

const context = { clock: systemClock, ids: timeOrderedIds() };
let database: TestDatabase;
let db: Db;
let organizations: string[];

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await migrate(db);
  const user = await createUser(db, context, { email: "numbering@example.com", displayName: "N" });
  organizations = [];
  for (const title of ["One", "Two"])
    organizations.push((await createOrganization(db, context, user.id, { title })).id);
  // Creating an organization records events of its own: numbered now, the tests count from here.
  await numberEvents(db);
});
afterAll(() => database.close());

/** Records an event titled `title` in `organizationId`, in a transaction of its own. */
const record = (organizationId: string, title: string, on: Db = db) =>
  on.transaction().execute((tx) =>
    recordEvent(tx, context, {
      organizationId,
      type: "space_created",
      data: { space: "s", title, visibility: "private" },
    }),
  );

/** The organization's events numbered after `after`: their numbers and titles, in number order. */
async function numberedAfter(organizationId: string, after: number) {
  const rows = await db
    .selectFrom("events")
    .select(["sequence", "data"])
    .where("organization_id", "=", organizationId)
    .where("sequence", ">", after)
    .orderBy("sequence")
    .execute();
  return rows.map((row) => ({
    sequence: Number(row.sequence),
    title: (JSON.parse(row.data as unknown as string) as { title: string }).title,
  }));
}

async function lastNumber(organizationId: string): Promise<number> {
  const row = await db
    .selectFrom("event_counters")
    .select("last_sequence")
    .where("organization_id", "=", organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.last_sequence);
}

const unnumbered = async () =>
  Number(
    (await db.selectFrom("unnumbered_events").select(db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n,
  );

describe("numbering events", () => {
  it("numbers each organization's events 1, 2, 3… in the order they were recorded, over several batches", async () => {
    const [one, two] = organizations as [string, string];
    const [afterOne, afterTwo] = [await lastNumber(one), await lastNumber(two)];
    // 2,100 events, the two organizations interleaved: three numbering transactions on PostgreSQL
    // (1,024 each at most), nine on SQLite (256).
    const events = 2_100;
    for (let i = 0; i < events; i++) await record(i % 3 === 0 ? two : one, `Event ${i}`);
    expect(await unnumbered()).toBe(events);
    // Not yet numbered, not yet read: the stream shows committed numbers only.
    expect(await numberedAfter(one, afterOne)).toEqual([]);

    expect(await numberEvents(db)).toBe(events);
    expect(await unnumbered()).toBe(0);
    const titles = (of: (i: number) => boolean) =>
      Array.from({ length: events }, (_, i) => i)
        .filter(of)
        .map((i) => `Event ${i}`);
    const numbered = (titlesOf: string[], after: number) =>
      titlesOf.map((title, i) => ({ sequence: after + 1 + i, title }));
    expect(await numberedAfter(one, afterOne)).toEqual(
      numbered(
        titles((i) => i % 3 !== 0),
        afterOne,
      ),
    );
    expect(await numberedAfter(two, afterTwo)).toEqual(
      numbered(
        titles((i) => i % 3 === 0),
        afterTwo,
      ),
    );
    expect(await lastNumber(one)).toBe(afterOne + 1_400);
    expect(await lastNumber(two)).toBe(afterTwo + 700);
    // Nothing left: a second numbering numbers nothing and moves no counter.
    expect(await numberEvents(db)).toBe(0);
    expect(await lastNumber(one)).toBe(afterOne + 1_400);
  });

  // An open transaction on SQLite holds the one writer: numbering could not run beside it.
  it.runIf(testDatabaseKind === "postgres")(
    "numbers only what has committed, without waiting for a transaction still open",
    async () => {
      const [one] = organizations as [string];
      const after = await lastNumber(one);
      let commit = () => {};
      const open = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let inserted = () => {};
      const insertedYet = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      // Inserted as a plain statement, not with the COMMIT as recordEvent sends it: open meanwhile.
      const early = db.transaction().execute(async (tx) => {
        await tx
          .insertInto("unnumbered_events")
          .values({
            id: context.ids.next(),
            organization_id: one,
            type: "space_created",
            data: JSON.stringify({ space: "s", title: "Early, committed last", visibility: "private" }),
            created_at: new Date().toISOString(),
          } as never)
          .execute();
        inserted();
        await open;
      });
      await insertedYet;
      await record(one, "Late, committed first");
      expect(await numberEvents(db)).toBe(1);
      expect(await numberedAfter(one, after)).toEqual([
        { sequence: after + 1, title: "Late, committed first" },
      ]);
      commit();
      await early;
      expect(await numberEvents(db)).toBe(1);
      expect((await numberedAfter(one, after)).map((e) => e.title)).toEqual([
        "Late, committed first",
        "Early, committed last",
      ]);
    },
  );

  // SQLite frees a deleted row's space at once; PostgreSQL keeps it until a vacuum.
  it.runIf(testDatabaseKind === "postgres")(
    "vacuums the queue once it has moved 4,096 events, and not before",
    async () => {
      const vacuums = async () =>
        Number(
          (
            await sql<{
              count: string;
            }>`select pg_stat_get_vacuum_count('unnumbered_events'::regclass) as count`.execute(db)
          ).rows[0]?.count,
        );
      const before = await vacuums();
      await sql`insert into unnumbered_events (id, organization_id, type, data, created_at)
        select 'queued-' || n, ${organizations[0]}, 'space_created', '{"space":"s","title":"Queued","visibility":"private"}', ${new Date().toISOString()}
        from generate_series(1, 4096) as n`.execute(db);
      expect(await numberEvents(db)).toBe(4_096);
      expect(await vacuums()).toBe(before + 1);
      await record(organizations[0] as string, "After the vacuum");
      expect(await numberEvents(db)).toBe(1);
      expect(await vacuums()).toBe(before + 1);
    },
  );

  // Several server processes share a PostgreSQL database; SQLite is one process's.
  it.runIf(testDatabaseKind === "postgres")(
    "numbers each event once when two servers number at the same time as writers write",
    { timeout: 60_000 },
    async () => {
      const second = openDatabase({ location: database.location });
      try {
        const [one, two] = organizations as [string, string];
        const after = { [one]: await lastNumber(one), [two]: await lastNumber(two) };
        let writing = true;
        const numberers = [db, second].map(async (on) => {
          while (writing) await numberEvents(on);
        });
        await Promise.all(
          Array.from({ length: 8 }, async (_, writer) => {
            for (let i = 0; i < 40; i++)
              await record(writer % 2 ? two : one, `${writer}.${i}`, writer % 3 ? db : second);
          }),
        );
        writing = false;
        await Promise.all(numberers);
        await numberEvents(db);
        for (const organizationId of [one, two]) {
          const events = await numberedAfter(organizationId, after[organizationId] as number);
          expect(events.map((e) => e.sequence)).toEqual(
            events.map((_, i) => (after[organizationId] as number) + 1 + i),
          );
          expect(new Set(events.map((e) => e.title)).size).toBe(160);
          // Each writer's events, one after another in its transactions, in its order.
          for (let writer = organizationId === one ? 0 : 1; writer < 8; writer += 2) {
            const own = events.map((e) => e.title).filter((title) => title.startsWith(`${writer}.`));
            expect(own).toEqual(Array.from({ length: 40 }, (_, i) => `${writer}.${i}`));
          }
        }
        expect(await unnumbered()).toBe(0);
      } finally {
        await second.destroy();
      }
    },
  );
});
