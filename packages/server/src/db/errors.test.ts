import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, testDatabaseKind } from "../testing/database.js";
import { checkDatabase, type Db, migrate, openDatabase } from "./database.js";
import { apiErrorFromDatabase } from "./errors.js";

/** The error `work` fails with; the test fails if it succeeds. */
function errorOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error("The database was expected to refuse this.");
    },
    (err: unknown) => err,
  );
}

/** The status and message `apiErrorFromDatabase` answers the error of `work` with. */
async function answerTo(work: Promise<unknown>) {
  const answer = apiErrorFromDatabase(await errorOf(work));
  return answer && { status: answer.status, message: answer.message };
}

const UNAVAILABLE = { status: 503, message: "The database is unavailable; try again." };

const user = (id: string, email: string) => ({
  id,
  display_name: "Ada",
  email,
  photo_url: null,
  created_at: "2026-01-01T00:00:00.000Z",
});

describe(`apiErrorFromDatabase on ${testDatabaseKind}`, () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await openTestDatabase({ busyTimeoutMs: 50, statementTimeoutMs: 200 });
    ({ db } = database);
    await migrate(db);
    await db.insertInto("users").values(user("u1", "ada@example.com")).execute();
  });
  afterAll(() => database.close());

  it("answers 409 to a unique violation, of a key or of another unique column", async () => {
    const exists = { status: 409, message: "A resource with the same unique value already exists." };
    expect(await answerTo(db.insertInto("users").values(user("u2", "ada@example.com")).execute())).toEqual(
      exists,
    );
    expect(await answerTo(db.insertInto("users").values(user("u1", "other@example.com")).execute())).toEqual(
      exists,
    );
  });

  it("answers 409 to a reference to a row that is not there", async () => {
    const token = { id: "t1", user_id: "gone", token_hash: "h", label: "l", created_at: "2026-01-01" };
    expect(await answerTo(db.insertInto("api_tokens").values(token).execute())).toEqual({
      status: 409,
      message: "A resource it refers to was changed or deleted meanwhile.",
    });
  });

  it("leaves other errors, bugs, to the caller", async () => {
    const missingName = sql`insert into users (id, email, created_at) values ('u3', 'c@example.com', 'now')`;
    expect(await answerTo(missingName.execute(db))).toBeUndefined();
    expect(apiErrorFromDatabase(new Error("boom"))).toBeUndefined();
    expect(apiErrorFromDatabase("boom")).toBeUndefined();
  });

  it.runIf(testDatabaseKind === "sqlite")(
    "answers 503 when another connection holds the SQLite file past the busy timeout",
    async () => {
      const holder = new SQLite(join(database.location, "quire.sqlite"));
      holder.exec("begin immediate");
      try {
        expect(await answerTo(db.insertInto("users").values(user("u4", "d@example.com")).execute())).toEqual(
          UNAVAILABLE,
        );
      } finally {
        holder.exec("rollback");
        holder.close();
      }
    },
  );

  describe.runIf(testDatabaseKind === "postgres")("PostgreSQL only", () => {
    it("answers 400 to text PostgreSQL cannot store or read", async () => {
      expect(
        await answerTo(db.insertInto("users").values(user("u5", "nul\u0000@example.com")).execute()),
      ).toEqual({
        status: 400,
        message: "Text must be valid UTF-8 without NUL characters.",
      });
      expect(await answerTo(sql`select cast('seven' as integer)`.execute(db))).toEqual({
        status: 400,
        message: "A value is not in the form the field takes.",
      });
      const tooLong = db.transaction().execute(async (trx) => {
        await sql`create temporary table short (value varchar(2)) on commit drop`.execute(trx);
        await sql`insert into short values ('abc')`.execute(trx);
      });
      expect(await answerTo(tooLong)).toEqual({ status: 400, message: "A value is too long." });
    });

    it("answers 503 to a statement past the statement timeout", async () => {
      expect(await answerTo(sql`select pg_sleep(2)`.execute(db))).toEqual(UNAVAILABLE);
    });

    it("answers 503 to a statement whose connection is terminated under it", async () => {
      const work = db.connection().execute(async (connection) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
        const sleeping = sql`select pg_sleep(0.15)`.execute(connection);
        // Awaited below; its failure may arrive before that, which must not count as unhandled.
        sleeping.catch(() => {});
        await sql`select pg_terminate_backend(${rows[0]?.pid})`.execute(db);
        await sleeping;
      });
      expect(await answerTo(work)).toEqual(UNAVAILABLE);
      await sql`select 1`.execute(db);
    });
  });
});

/** A port that accepts connections and never answers, like a server that hangs. */
async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `postgres://quire@127.0.0.1:${port}/quire`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// Nothing listens on the discard port.
const CLOSED_PORT_URL = "postgres://quire@127.0.0.1:9/quire";

describe("an unreachable PostgreSQL", () => {
  it("answers 503 when the connection is refused", async () => {
    const db = openDatabase({ location: CLOSED_PORT_URL });
    try {
      expect(await answerTo(sql`select 1`.execute(db))).toEqual(UNAVAILABLE);
    } finally {
      await db.destroy();
    }
  });

  it("answers 503 when connecting takes longer than the connect timeout", async () => {
    const server = await silentServer();
    const db = openDatabase({ location: server.url, connectTimeoutMs: 100 });
    try {
      expect(await answerTo(sql`select 1`.execute(db))).toEqual(UNAVAILABLE);
    } finally {
      await db.destroy();
      await server.close();
    }
  });
});

describe("checkDatabase", () => {
  it(`is true for the ${testDatabaseKind} database`, async () => {
    const { db, close } = await openTestDatabase();
    try {
      expect(await checkDatabase(db)).toBe(true);
    } finally {
      await close();
    }
  });

  it("is false for a database that refuses connections", async () => {
    const db = openDatabase({ location: CLOSED_PORT_URL });
    try {
      expect(await checkDatabase(db)).toBe(false);
    } finally {
      await db.destroy();
    }
  });

  it("is false once its timeout passes, however long connecting may take", async () => {
    const server = await silentServer();
    const db = openDatabase({ location: server.url, connectTimeoutMs: 10_000 });
    try {
      const started = performance.now();
      expect(await checkDatabase(db, 100)).toBe(false);
      expect(performance.now() - started).toBeLessThan(1_000);
    } finally {
      await server.close();
      await db.destroy();
    }
  });
});
