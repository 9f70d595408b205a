import type { AddressInfo } from "node:net";
import { createConnection, createServer, type Server, Socket } from "node:net";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, testDatabaseKind } from "../testing/database.js";
import { runWithCommit } from "./commit-pipeline.js";
import { type Db, openDatabase } from "./database.js";
import { nameStatement } from "./statement-names.js";

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
      await runWithCommit(tx, note(1, body, 2));
      await runWithCommit(tx, note(2, null));
    });
    expect(await notes()).toEqual([
      { id: 1, body },
      { id: 2, body: null },
    ]);
  });

  it.runIf(testDatabaseKind === "postgres")(
    "go to PostgreSQL with the COMMIT, after the transaction's own statements",
    async () => {
      await db.transaction().execute(async (tx) => {
        await runWithCommit(tx, note(1, "first"));
        // Not yet run: a statement after it in the transaction does not see its row.
        const { rows } = await sql`select id from notes`.execute(tx);
        expect(rows).toEqual([]);
      });
      expect(statements.slice(-2)).toEqual([expect.stringMatching(/^insert into notes/), "commit"]);
      expect(await notes()).toEqual([{ id: 1, body: "first" }]);
    },
  );

  it("fail the commit when one fails: nothing of the transaction stays, and the connection goes on", async () => {
    const failed = db.transaction().execute(async (tx) => {
      await sql`insert into parents (id) values (2)`.execute(tx);
      await runWithCommit(tx, note(1, "kept?"));
      await runWithCommit(tx, note(2, "no parent", 404));
    });
    await expect(failed).rejects.toThrow(/foreign key/i);
    expect(await notes()).toEqual([]);
    expect((await sql`select id from parents order by id`.execute(db)).rows).toEqual([{ id: 1 }]);
    await db.transaction().execute((tx) => runWithCommit(tx, note(3, "after")));
    expect(await notes()).toEqual([{ id: 3, body: "after" }]);
  });

  it("are dropped with a transaction rolled back, and never sent with the next on its connection", async () => {
    await expect(
      db.transaction().execute(async (tx) => {
        await runWithCommit(tx, note(1, "rolled back"));
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
    await db.transaction().execute((tx) => runWithCommit(tx, note(2, "again")));
    expect(await notes()).toEqual([{ id: 2, body: "again" }]);
  });

  it("run at once outside a transaction", async () => {
    await runWithCommit(db, note(1, "alone"));
    expect(await notes()).toEqual([{ id: 1, body: "alone" }]);
  });
});

/**
 * A proxy on loopback between Quire and PostgreSQL that counts round trips, the times the client
 * writes after the server has answered (or first), whatever the bytes; and the server's answers, its
 * ReadyForQuery messages (one after each Sync or simple query), read from its messages' framing.
 */
async function roundTripCounter(target: URL) {
  const roundTrips = counter();
  const answers = counter();
  const server: Server = createServer((client) => {
    let answered = true;
    let unread = Buffer.alloc(0);
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    client.on("data", (chunk) => {
      if (answered) roundTrips.add();
      answered = false;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      answered = true;
      // Each message: a type byte, then its length (itself included) in 4 bytes.
      unread = Buffer.concat([unread, chunk]);
      while (unread.length >= 5 && unread.length >= 1 + unread.readUInt32BE(1)) {
        if (unread[0] === "Z".charCodeAt(0)) answers.add();
        unread = unread.subarray(1 + unread.readUInt32BE(1));
      }
      client.write(chunk);
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const location = new URL(target.href);
  location.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    location: location.href,
    /** Round trips since the last call. */
    take: roundTrips.take,
    /** Answers since the last call. */
    takeAnswers: answers.take,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Counts the writes (system calls) of sockets connected to `port`: the calls of net's `_write` (one
 * chunk) and `_writev` (all those held back), which each hand the kernel what they are given at once.
 */
function socketWritesTo(port: number) {
  type Write = (this: Socket, ...args: unknown[]) => unknown;
  const prototype = Socket.prototype as unknown as Record<"_write" | "_writev", Write>;
  const originals = { _write: prototype._write, _writev: prototype._writev };
  const writes = counter();
  for (const method of ["_write", "_writev"] as const)
    prototype[method] = function (this: Socket, ...args: unknown[]) {
      if (this.remotePort === port) writes.add();
      return originals[method].apply(this, args);
    };
  return {
    /** Writes since the last call. */
    take: writes.take,
    restore: () => Object.assign(prototype, originals),
  };
}

/** A count, and what it reached since it was last taken. */
function counter() {
  let count = 0;
  return {
    add: () => {
      count++;
    },
    take: () => {
      const taken = count;
      count = 0;
      return taken;
    },
  };
}

describe.runIf(testDatabaseKind === "postgres")("PostgreSQL's transactions, pipelined", () => {
  let testDatabase: TestDatabase;
  let db: Db;
  let proxy: Awaited<ReturnType<typeof roundTripCounter>>;

  beforeEach(async () => {
    testDatabase = await openTestDatabase();
    await sql`create table notes (id integer primary key, body text not null)`.execute(testDatabase.db);
    proxy = await roundTripCounter(new URL(testDatabase.location));
    db = openDatabase({ location: proxy.location });
    // The pool's connection made, and its first statement sent, before counting.
    await sql`select 1`.execute(db);
    proxy.take();
  });
  afterEach(async () => {
    await db.destroy();
    await proxy.close();
    await testDatabase.close();
  });

  const note = (id: number, body: string) => sql`insert into notes (id, body) values (${id}, ${body})`;
  const notes = async () =>
    (await sql<{ id: number; body: string }>`select id, body from notes order by id`.execute(db)).rows;

  it("send BEGIN with the first statement, and what runs with the commit with the COMMIT: two round trips", async () => {
    await db.transaction().execute(async (tx) => {
      await note(1, "first").execute(tx);
      await runWithCommit(tx, note(2, "with the commit").compile(tx));
    });
    expect(proxy.take()).toBe(2);
    expect(await notes()).toEqual([
      { id: 1, body: "first" },
      { id: 2, body: "with the commit" },
    ]);
  });

  it("write the queries given together in one system call: two for such a transaction", async () => {
    const writes = socketWritesTo(Number(new URL(proxy.location).port));
    try {
      await db.transaction().execute(async (tx) => {
        await note(1, "first").execute(tx);
        await runWithCommit(tx, note(2, "with the commit").compile(tx));
      });
      // BEGIN with the first statement, then the statement run with the commit with the COMMIT.
      expect(writes.take()).toBe(2);
      // Queries given one after another, each after the answer before it, are written one by one.
      await note(3, "alone").execute(db);
      await sql`select 1`.execute(db);
      expect(writes.take()).toBe(2);
    } finally {
      writes.restore();
    }
    expect(await notes()).toHaveLength(3);
  });

  it("answer a prepared statement sent with the COMMIT together with the COMMIT", async () => {
    const withTheCommit = (id: number, body: string) => {
      const query = note(id, body).compile(db);
      nameStatement(query.sql);
      return query;
    };
    const transaction = (id: number) =>
      db.transaction().execute(async (tx) => {
        await note(id, "first").execute(tx);
        await runWithCommit(tx, withTheCommit(id + 1, "with the commit"));
      });
    // Its first run on the connection prepares it: an answer for BEGIN, the first statement, it, COMMIT.
    await transaction(1);
    proxy.takeAnswers();
    expect(proxy.take()).toBe(2);
    await transaction(3);
    expect(proxy.takeAnswers()).toBe(3);
    expect(proxy.take()).toBe(2);
    // One that fails: PostgreSQL skips the COMMIT after it (an answer for both), then the driver's ROLLBACK.
    await expect(
      db.transaction().execute(async (tx) => {
        await note(7, "rolled back").execute(tx);
        await runWithCommit(tx, withTheCommit(1, "a duplicate key, with the commit"));
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(proxy.takeAnswers()).toBe(4);
    await db.transaction().execute((tx) => runWithCommit(tx, withTheCommit(8, "after")));
    expect((await notes()).map((row) => row.id)).toEqual([1, 2, 3, 4, 8]);
  });

  it("keep a transaction whole when its first statement fails: rolled back, the connection usable", async () => {
    await note(1, "before").execute(db);
    const failed = db.transaction().execute(async (tx) => {
      await note(1, "a duplicate key").execute(tx);
    });
    await expect(failed).rejects.toThrow(/duplicate key/);
    await expect(
      db.transaction().execute(async (tx) => {
        await note(2, "rolled back").execute(tx);
        await runWithCommit(tx, note(1, "a duplicate key, with the commit").compile(tx));
      }),
    ).rejects.toThrow(/duplicate key/);
    // A transaction whose work fails before any statement of its.
    await expect(
      db.transaction().execute(async () => {
        throw new Error("before any statement");
      }),
    ).rejects.toThrow("before any statement");
    await db.transaction().execute((tx) => note(3, "after").execute(tx));
    expect(await notes()).toEqual([
      { id: 1, body: "before" },
      { id: 3, body: "after" },
    ]);
  });
});
