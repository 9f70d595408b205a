import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql, type Transaction } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { configFromEnv } from "../config.js";
import { openTestDatabase, testDatabaseKind } from "../testing/database.js";
import { areaMigrations } from "./area-migrations.js";
import { type Db, migrate, openDatabase } from "./database.js";
import { apiErrorFromDatabase } from "./errors.js";
import { preparedRead } from "./prepared.js";
import type { Database } from "./schema.js";

const backendPid = async (db: Db | Transaction<Database>) =>
  (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]?.pid;

/** The statements prepared on `connection`, as PostgreSQL lists them. */
const preparedOn = async (connection: Db) =>
  (
    await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection)
  ).rows.map((row) => row.statement);

// An uncaught error event of the pool or a client would end the worker, and vitest fails the run.
describe.runIf(testDatabaseKind === "postgres")("PostgreSQL connections that break", () => {
  it("are dropped from the pool when idle, told to the logger, and replaced", async () => {
    const logger = { warn: vi.fn() };
    const { db, close } = await openTestDatabase({ logger });
    const other = await openTestDatabase();
    try {
      const pid = await backendPid(db);
      await sql`select pg_terminate_backend(${pid})`.execute(other.db);
      await vi.waitFor(() => expect(logger.warn).toHaveBeenCalledOnce());
      expect(logger.warn).toHaveBeenCalledWith(
        { err: expect.objectContaining({ code: "57P01" }) },
        "PostgreSQL closed an idle pooled connection",
      );
      expect(await backendPid(db)).not.toBe(pid);
    } finally {
      await other.close();
      await close();
    }
  });

  type During = (trx: Transaction<Database>, terminate: () => Promise<unknown>) => Promise<unknown>;
  const idle: During = async (trx, terminate) => {
    await terminate();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await sql`select 1`.execute(trx);
  };
  const underAStatement: During = (trx, terminate) =>
    Promise.all([sql`select pg_sleep(0.2)`.execute(trx), terminate()]);

  it.each([
    ["idle in it", idle],
    ["under a statement", underAStatement],
  ])("fail the transaction that holds one, %s, with a 503, and the next query works", async (_, during) => {
    const { db, close } = await openTestDatabase();
    try {
      const transaction = db.transaction().execute(async (trx) => {
        const pid = await backendPid(trx);
        await during(trx, () => sql`select pg_terminate_backend(${pid})`.execute(db));
      });
      const failure = await transaction.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(apiErrorFromDatabase(failure)?.status).toBe(503);
      await sql`select 1`.execute(db);
    } finally {
      await close();
    }
  });

  it("bound statements by the statement timeout, 15 s unless configured", async () => {
    const defaults = await openTestDatabase();
    const configured = await openTestDatabase({ statementTimeoutMs: 1_234 });
    try {
      const show = async (db: Db) =>
        (await sql<{ statement_timeout: string }>`show statement_timeout`.execute(db)).rows[0]
          ?.statement_timeout;
      expect(await show(defaults.db)).toBe("15s");
      expect(await show(configured.db)).toBe("1234ms");
    } finally {
      await configured.close();
      await defaults.close();
    }
  });

  it("let migrations run past the statement timeout, and keep it for the rest", async () => {
    const root = mkdtempSync(join(tmpdir(), "quire-slow-migration-"));
    mkdirSync(join(root, "spaces", "migrations"), { recursive: true });
    writeFileSync(
      join(root, "spaces", "migrations", "202601010000_slow.ts"),
      'import { sql, type Transaction } from "kysely";\nexport async function up(db) { await sql`select pg_sleep(0.3)`.execute(db); }\n',
    );
    const { db, close } = await openTestDatabase({ statementTimeoutMs: 100, connectTimeoutMs: 1_000 });
    try {
      await migrate(db, areaMigrations(root));
      await expect(sql`select pg_sleep(0.3)`.execute(db)).rejects.toMatchObject({ code: "57014" });
    } finally {
      await close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe.runIf(testDatabaseKind === "postgres")("PostgreSQL prepared statements", () => {
  it("are named for the hot paths, prepared anew when a migration changes their columns", async () => {
    const { db, close } = await openTestDatabase();
    try {
      await sql`create table prepared_probe (a integer)`.execute(db);
      await sql`insert into prepared_probe values (1)`.execute(db);
      const probe = preparedRead((db) => ({
        compile: () => sql<{ a: number }>`select * from prepared_probe`.compile(db),
      }));
      await db.connection().execute(async (connection) => {
        expect(await probe(connection, {})).toEqual([{ a: 1 }]);
        expect(await preparedOn(connection)).toContain("select * from prepared_probe");
        // Another process's migration adds a column: PostgreSQL refuses the prepared plan once (503,
        // worth a retry), and the next run prepares it again.
        await sql`alter table prepared_probe add column b text`.execute(db);
        const refused = await probe(connection, {}).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(apiErrorFromDatabase(refused)?.status).toBe(503);
        expect(await probe(connection, {})).toEqual([{ a: 1, b: null }]);
      });
    } finally {
      await close();
    }
  });
});

describe.runIf(testDatabaseKind === "postgres")("PostgreSQL statements run often", () => {
  it("are prepared once they have run five times if they read or write rows; commands never", async () => {
    const { db, close } = await openTestDatabase();
    try {
      await sql`create table naming_probe (a integer)`.execute(db);
      // One connection, whose prepared statements PostgreSQL lists.
      await db.connection().execute(async (connection) => {
        const update = "update naming_probe set a = a + 1";
        const command = "set application_name = 'naming probe'";
        for (let run = 1; run < 5; run++) {
          await sql.raw(update).execute(connection);
          await sql.raw(command).execute(connection);
        }
        expect(await preparedOn(connection)).not.toContain(update);
        await sql.raw(update).execute(connection);
        await sql.raw(command).execute(connection);
        expect(await preparedOn(connection)).toContain(update);
        expect(await preparedOn(connection)).not.toContain(command);
      });
    } finally {
      await close();
    }
  });
});

describe.runIf(testDatabaseKind === "sqlite")("SQLite parameters", () => {
  it("are written `+?`, and every kind of value comes back as it was bound", async () => {
    const { db, close } = await openTestDatabase();
    try {
      const probe = (value: unknown) =>
        sql<{ kind: string; value: unknown }>`select typeof(${value}) as kind, ${value} as value`;
      expect(probe("x").compile(db).sql).toBe("select typeof(+?) as kind, +? as value");
      const bytes = Buffer.from([0, 1, 2]);
      // better-sqlite3 binds a JS number as a real, a bigint as an integer.
      for (const [value, kind, read] of [
        ["012", "text", "012"],
        [12n, "integer", 12],
        [1.5, "real", 1.5],
        [null, "null", null],
        [bytes, "blob", bytes],
      ] as const) {
        const { rows } = await probe(value).execute(db);
        expect(rows[0]).toEqual({ kind, value: read });
      }
      // In a LIMIT, where the planner reads a bare parameter's value, and beside an index.
      await migrate(db);
      const limited = await db.selectFrom("users").select("id").where("id", "=", "nobody").limit(1).execute();
      expect(limited).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe.runIf(testDatabaseKind === "sqlite")("SQLite durability", () => {
  it("is what it is set to, on a new database and on one reopened: `normal` by default, or `full`", async () => {
    const directory = mkdtempSync(join(tmpdir(), "quire-durability-"));
    const synchronous = async (db: Db) =>
      (await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0]?.synchronous;
    try {
      for (const create of [true, false])
        for (const [setting, level] of [
          [undefined, 1],
          ["full", 2],
          ["normal", 1],
        ] as const) {
          const db = openDatabase({ location: directory, create, ...(setting && { synchronous: setting }) });
          try {
            expect(await synchronous(db)).toBe(level);
            await migrate(db);
          } finally {
            await db.destroy();
          }
        }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("is configured by QUIRE_SQLITE_SYNCHRONOUS, normal or full, and nothing else", () => {
    expect(configFromEnv({}).sqliteSynchronous).toBe("normal");
    expect(configFromEnv({ QUIRE_SQLITE_SYNCHRONOUS: "full" }).sqliteSynchronous).toBe("full");
    expect(() => configFromEnv({ QUIRE_SQLITE_SYNCHRONOUS: "off" })).toThrow(
      'QUIRE_SQLITE_SYNCHRONOUS must be "normal" or "full", not "off"',
    );
  });
});
