import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDatabaseKind } from "../testing/database.js";
import { type Db, openDatabase, sqliteReaderOf } from "./database.js";
import { GROUP_COMMIT_LIMIT } from "./group-commit.js";

describe.runIf(testDatabaseKind === "sqlite")("SQLite group commit", () => {
  let directory: string;
  let db: Db;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), "quire-group-commit-"));
    db = openDatabase({ location: directory });
    await sql`create table parents (id integer primary key)`.execute(db);
    await sql`create table notes (id integer primary key, parent_id integer references parents (id))`.execute(
      db,
    );
    await sql`insert into parents (id) values (1)`.execute(db);
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(directory, { recursive: true, force: true });
  });

  /** The notes a reader sees: what is committed, never what a transaction has yet to commit. */
  const committedNotes = () => {
    const reader = sqliteReaderOf(db);
    if (!reader) throw new Error("A SQLite file database has a reader connection");
    const rows = reader.prepare("select id from notes order by id").all([]) as { id: number }[];
    return rows.map((row) => row.id);
  };
  const insertNote = (into: Db, id: number, parentId = 1) =>
    sql`insert into notes (id, parent_id) values (${id}, ${parentId})`.execute(into);

  it("commits the transactions of one turn together, and answers each only once committed", async () => {
    const answered: number[] = [];
    const seenBySecond: number[][] = [];
    const first = db.transaction().execute(async (tx) => insertNote(tx, 1));
    const second = db.transaction().execute(async (tx) => {
      // The first has ended, and waits in the same commit as this one.
      seenBySecond.push(committedNotes());
      await insertNote(tx, 2);
    });
    void first.then(() => answered.push(1));
    void second.then(() => answered.push(2));
    await Promise.all([first, second]);
    expect(seenBySecond).toEqual([[]]);
    expect(answered).toEqual([1, 2]);
    expect(committedNotes()).toEqual([1, 2]);
  });

  it("commits at once when a batch is full, the next transaction in a batch of its own", async () => {
    const seenByLastOfFirst: number[][] = [];
    const seenByLast: number[][] = [];
    const transactions = Array.from({ length: GROUP_COMMIT_LIMIT + 1 }, (_, i) =>
      db.transaction().execute(async (tx) => {
        if (i === GROUP_COMMIT_LIMIT - 1) seenByLastOfFirst.push(committedNotes());
        if (i === GROUP_COMMIT_LIMIT) seenByLast.push(committedNotes());
        await insertNote(tx, i + 1);
      }),
    );
    await Promise.all(transactions);
    expect(seenByLastOfFirst).toEqual([[]]);
    expect(seenByLast).toEqual([Array.from({ length: GROUP_COMMIT_LIMIT }, (_, i) => i + 1)]);
    expect(committedNotes()).toHaveLength(GROUP_COMMIT_LIMIT + 1);
  });

  it("undoes only the transaction rolled back: the others of its batch commit", async () => {
    const failure = new Error("this one fails");
    const results = await Promise.allSettled([
      db.transaction().execute(async (tx) => insertNote(tx, 1)),
      db.transaction().execute(async (tx) => {
        await insertNote(tx, 2);
        throw failure;
      }),
      db.transaction().execute(async (tx) => insertNote(tx, 3)),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toBe(failure);
    expect(committedNotes()).toEqual([1, 3]);
  });

  it("undoes the batch when a transaction alone is rolled back, and the next one commits", async () => {
    await expect(
      db.transaction().execute(async (tx) => {
        await insertNote(tx, 1);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await db.transaction().execute(async (tx) => insertNote(tx, 2));
    expect(committedNotes()).toEqual([2]);
  });

  it("fails every transaction of a batch whose commit fails, keeps none of them, and goes on", async () => {
    // A foreign key checked at the commit (deferred): the commit itself fails.
    const results = await Promise.allSettled([
      db.transaction().execute(async (tx) => insertNote(tx, 1)),
      db.transaction().execute(async (tx) => {
        await sql`pragma defer_foreign_keys = on`.execute(tx);
        await insertNote(tx, 2, 404);
      }),
      db.transaction().execute(async (tx) => insertNote(tx, 3)),
    ]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected", "rejected"]);
    for (const result of results)
      expect(String((result as PromiseRejectedResult).reason)).toContain("FOREIGN KEY constraint failed");
    expect(committedNotes()).toEqual([]);
    await db.transaction().execute(async (tx) => insertNote(tx, 4));
    await insertNote(db, 5);
    expect(committedNotes()).toEqual([4, 5]);
  });

  it("commits a waiting batch before a statement outside any transaction runs", async () => {
    let transactionAnswered = false;
    const transaction = db
      .transaction()
      .execute(async (tx) => insertNote(tx, 1))
      .then(() => {
        transactionAnswered = true;
      });
    const { rows } = await sql<{ id: number }>`select id from notes`.execute(db);
    expect(rows).toEqual([{ id: 1 }]);
    expect(committedNotes()).toEqual([1]);
    await transaction;
    expect(transactionAnswered).toBe(true);
  });

  it("commits a waiting batch when the database is closed", async () => {
    let inserted!: () => void;
    const insertedNote = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const transaction = db.transaction().execute(async (tx) => {
      await insertNote(tx, 1);
      inserted();
    });
    // Closed before the end of the turn, where its commit was to be.
    await insertedNote;
    await db.destroy();
    await transaction;
    db = openDatabase({ location: directory });
    const { rows } = await sql<{ id: number }>`select id from notes`.execute(db);
    expect(rows).toEqual([{ id: 1 }]);
  });
});
