import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, testDatabaseKind } from "../testing/database.js";
import { runWithCommit } from "./commit-pipeline.js";
import type { Db } from "./database.js";

describe("statements run with the commit", () => {
  let testDatabase: TestDatabase;
  let db: Db;
  const statements: string[] = [];

  beforeEach(async () => {
    statements.length = 0;
    testDatabase = await openTestDatabase({ onStatement: (text) => statements.push(text) });
    db = testDatabase.db;
    await sql`create table parents (id integer primary key)`.execute(db);
    await sql`create table notes (id integer primary key, parent_id integer not null references parents (id), body text)`.execute(
      db,
    );
    await sql`insert into parents (id) values (1)`.execute(db);
  });
  afterEach(() => testDatabase.close());

  const note = (id: number, body: string | null, parentId = 1) =>
    sql`insert into notes (id, parent_id, body) values (${id}, ${parentId}, ${body})`.compile(db);
  const notes = async () =>
    (await sql<{ id: number; body: string | null }>`select id, body from notes order by id`.execute(db)).rows;

  it("are committed with the transaction, their values exactly as given", async () => {
    const body = `O'Brien's \\ "notes" \\' -- ; commit; é ${"x".repeat(3000)}`;
    await db.transaction().execute(async (tx) => {
      await sql`insert into parents (id) values (2)`.execute(tx);
      await runWithCommit(tx, "note", note(1, body, 2));
      await runWithCommit(tx, "note", note(2, null));
    });
    expect(await notes()).toEqual([
      { id: 1, body },
      { id: 2, body: null },
    ]);
  });

  it.runIf(testDatabaseKind === "postgres")(
    "go to PostgreSQL with the COMMIT, in the same message, after the transaction's own",
    async () => {
      await db.transaction().execute(async (tx) => {
        await runWithCommit(tx, "note", note(1, "first"));
        // Not yet run: a statement after it in the transaction does not see its row.
        const { rows } = await sql`select id from notes`.execute(tx);
        expect(rows).toEqual([]);
      });
      expect(statements.at(-1)).toBe("execute note (1, 1, 'first');\ncommit");
      expect(await notes()).toEqual([{ id: 1, body: "first" }]);
      // Prepared once on the connection, which the next transaction reuses.
      await db.transaction().execute((tx) => runWithCommit(tx, "note", note(2, "second")));
      expect(statements.filter((text) => text.startsWith("prepare note as insert into notes"))).toHaveLength(
        1,
      );
      expect(await notes()).toEqual([
        { id: 1, body: "first" },
        { id: 2, body: "second" },
      ]);
    },
  );

  it("fail the commit when one fails: nothing of the transaction stays, and the connection goes on", async () => {
    const failed = db.transaction().execute(async (tx) => {
      await sql`insert into parents (id) values (2)`.execute(tx);
      await runWithCommit(tx, "note", note(1, "kept?"));
      await runWithCommit(tx, "note", note(2, "no parent", 404));
    });
    await expect(failed).rejects.toThrow(/foreign key/i);
    expect(await notes()).toEqual([]);
    expect((await sql`select id from parents order by id`.execute(db)).rows).toEqual([{ id: 1 }]);
    await db.transaction().execute((tx) => runWithCommit(tx, "note", note(3, "after")));
    expect(await notes()).toEqual([{ id: 3, body: "after" }]);
  });

  it("are dropped with a transaction rolled back, and never sent with the next on its connection", async () => {
    await expect(
      db.transaction().execute(async (tx) => {
        await runWithCommit(tx, "note", note(1, "rolled back"));
        throw new Error("the change fails");
      }),
    ).rejects.toThrow("the change fails");
    // A pool of one connection on SQLite, and the same pooled one again on PostgreSQL when idle.
    statements.length = 0;
    await db.transaction().execute((tx) => sql`insert into parents (id) values (2)`.execute(tx));
    if (testDatabaseKind === "postgres") expect(statements.at(-1)).toBe("commit");
    expect(await notes()).toEqual([]);
    expect((await sql`select id from parents order by id`.execute(db)).rows).toEqual([{ id: 1 }, { id: 2 }]);
    // Its statement stays prepared on the connection, rolled back or not, and runs again.
    await db.transaction().execute((tx) => runWithCommit(tx, "note", note(2, "again")));
    expect(await notes()).toEqual([{ id: 2, body: "again" }]);
  });

  it("run at once outside a transaction", async () => {
    await runWithCommit(db, "note", note(1, "alone"));
    expect(await notes()).toEqual([{ id: 1, body: "alone" }]);
  });
});
