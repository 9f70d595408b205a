import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import {
  type CompiledQuery,
  type DialectAdapter,
  type Driver,
  Kysely,
  type Transaction as KyselyTransaction,
  type LogEvent,
  PostgresAdapter,
  PostgresDialect,
  type PostgresDialectConfig,
  type QueryCompiler,
  type SqliteDatabase,
  SqliteDialect,
  SqliteQueryCompiler,
  type SqliteStatement,
  sql,
} from "kysely";
import { type MigrationProvider, Migrator } from "kysely/migration";
import pg from "pg";
import type { Logger } from "pino";
import { areaMigrations } from "./area-migrations.js";
import { type CheckpointSettings, DEFAULT_CHECKPOINTS, startCheckpointer } from "./checkpoints.js";
import { COMMIT_WITH, commitWith, type NamedStatement, PipeliningPostgresDriver } from "./commit-pipeline.js";
import { GroupCommitSqliteAdapter, GroupCommitSqliteDriver } from "./group-commit.js";
import type { Database } from "./schema.js";
import type { SqliteSync } from "./sqlite-sync.js";
import { nameForRun } from "./statement-names.js";
import { WriteCounter } from "./writes.js";

export type Db = Kysely<Database>;

/** An open transaction (`db.transaction().execute(async (tx) => ...)`): what a command in `commands/` takes. */
export type Transaction = KyselyTransaction<Database>;

/** Told of a statement's SQL and parameters as it is sent. */
export type StatementObserver = (sql: string, parameters: readonly unknown[]) => void;

export interface DatabaseOptions {
  /** A `postgres://` URL selects PostgreSQL; anything else is a directory for the SQLite file. */
  location: string;
  /** Called with every statement sent to the database (tests count them, the bench replays them). */
  onStatement?: StatementObserver;
  /** Told of faults no query sees, such as PostgreSQL closing an idle pooled connection. */
  logger?: Pick<Logger, "warn">;
  /** PostgreSQL: how long a query waits for a connection before failing. */
  connectTimeoutMs?: number;
  /** PostgreSQL: the server cancels a statement that runs longer (`statement_timeout`). */
  statementTimeoutMs?: number;
  /** SQLite: how long a statement waits for another connection's lock (`busy_timeout`). */
  busyTimeoutMs?: number;
  /** SQLite: create the database (and its directory) when there is none, as by default; else throw. */
  create?: boolean;
  /** SQLite: when the log is checkpointed (see `checkpoints.ts`); tests make it short. */
  checkpoints?: CheckpointSettings;
  /** SQLite: when commits are synced to disk (`QUIRE_SQLITE_SYNCHRONOUS`, see `SqliteSync`). */
  synchronous?: SqliteSync;
}

/** PostgreSQL's defaults: how long to wait for a connection, and for a statement. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;

/**
 * A pg client that runs the statements `nameForRun` names as named prepared statements: PostgreSQL
 * parses and plans them once per connection instead of on every run (planning took twice as long as
 * running a space's read). When a migration changes the columns a prepared `select *`
 * returns, PostgreSQL refuses to run it (SQLSTATE 0A000, answered 503); the client then names its
 * statements anew, so the next run prepares them again. It also runs the driver's COMMIT_WITH, a
 * COMMIT with the statements to run before it (`commitWith`).
 */
class NamingClient extends pg.Client {
  #generation = 0;
  #writing = false;

  override query = ((text: unknown, values?: unknown, ...rest: unknown[]) => {
    const run = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
    this.#writeTogether();
    if (text === COMMIT_WITH) {
      const statements = (values as CompiledQuery[]).map(({ sql, parameters }) =>
        this.#named(sql, parameters),
      );
      return this.#renamingOnPlanChange(
        commitWith(this, statements, (statement) => run.call(this, statement) as Promise<unknown>),
      );
    }
    const statement =
      typeof text === "string" && rest.length === 0
        ? this.#named(text, values as readonly unknown[])
        : undefined;
    if (statement?.name === undefined) return run.call(this, text, values, ...rest);
    return this.#renamingOnPlanChange(run.call(this, statement));
  }) as pg.Client["query"];

  /** `text` with the name it runs under on this connection, if it has one (`nameForRun`). */
  #named(text: string, values: readonly unknown[] = []): NamedStatement {
    const name = nameForRun(text);
    return { name: name === undefined ? undefined : `${name}_${this.#generation}`, text, values };
  }

  /** `query`, its statements named anew after it fails on a plan changed under a prepared statement. */
  #renamingOnPlanChange<T>(query: unknown): Promise<T> {
    return (query as Promise<T>).catch((err: unknown) => {
      if ((err as { code?: unknown }).code === PLAN_CHANGED) this.#generation++;
      throw err;
    });
  }

  /**
   * Holds back what this turn of the event loop writes to the connection, and writes it in one go
   * once the turn ends: the queries given together (a BEGIN and the statement after it, a COMMIT and
   * the statements sent with it) in one system call instead of one each. A write to a loopback socket
   * took 17–62 µs of CPU here, and a space's rename, with its event, wrote 7 times (6 to PostgreSQL):
   * a third of its CPU in the server's thread. It now writes 5 times: 18% less CPU a rename in the
   * process, and 14% more renames a second (medians of 6 runs of each side alternated).
   */
  #writeTogether(): void {
    if (this.#writing) return;
    const { stream } = this.connection;
    stream.cork();
    this.#writing = true;
    setImmediate(() => {
      this.#writing = false;
      stream.uncork();
    });
  }
}

/** The SQLSTATE of "cached plan must not change result type". */
export const PLAN_CHANGED = "0A000";

/** Whether a database location is a PostgreSQL URL; anything else is a SQLite directory. */
export const isPostgresLocation = (location: string) => /^postgres(ql)?:\/\//.test(location);

/** Opens the database (SQLite in WAL mode by default, PostgreSQL for a postgres URL). */
export function openDatabase({
  location,
  onStatement,
  logger,
  connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
  statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS,
  busyTimeoutMs = 5_000,
  create = true,
  checkpoints = DEFAULT_CHECKPOINTS,
  synchronous = "normal",
}: DatabaseOptions): Db {
  const log =
    onStatement &&
    ((event: LogEvent) => {
      const { sql, parameters } = event.query;
      if (sql !== COMMIT_WITH) return onStatement(sql, parameters);
      // The statements sent with the COMMIT, then the COMMIT.
      for (const statement of parameters as CompiledQuery[]) onStatement(statement.sql, statement.parameters);
      onStatement("commit", []);
    });
  if (isPostgresLocation(location)) {
    const pool = new pg.Pool({
      Client: NamingClient,
      connectionString: location,
      connectionTimeoutMillis: connectTimeoutMs,
      statement_timeout: statementTimeoutMs,
      // Queries written without waiting for the answers before them (see `PipeliningPostgresDriver`).
      pipeline: true,
    });
    // A connection can break (server restart, failover, terminated backend) at any time; an
    // unhandled error event would end the process. One lent out fails its query, or the next,
    // and that error is the one reported; the pool then drops it.
    pool.on("connect", (client) => {
      client.on("error", () => {});
      // After a FATAL error the server closes the connection; ending it at once keeps the pool
      // from lending it out again before the close arrives.
      client.connection.on("errorMessage", (message: pg.DatabaseError) => {
        if (message.severity === "FATAL") client.end().catch(() => {});
      });
    });
    // An idle one the pool drops itself, and connects anew when next asked.
    pool.on("error", (err) => logger?.warn({ err }, "PostgreSQL closed an idle pooled connection"));
    const writes = new WriteCounter();
    const db = new Kysely<Database>({
      dialect: new PipeliningPostgresDialect({ pool }),
      plugins: [writes],
      ...(log && { log }),
    });
    writeCounters.set(db, writes);
    return db;
  }
  let file = ":memory:";
  if (location !== ":memory:") {
    file = join(location, "quire.sqlite");
    if (create) mkdirSync(location, { recursive: true });
    else if (!existsSync(file))
      throw new Error(`No Quire database in ${location}: is it the server's data directory?`);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  // Said outright: left to its build's default, SQLite reported FULL on a new database while it ran
  // NORMAL (the build's default for WAL), and NORMAL once reopened.
  sqlite.pragma(`synchronous = ${synchronous}`);
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
  sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
  let checkpointing = false;
  const checkpointer =
    file === ":memory:"
      ? undefined
      : startCheckpointer(file, sqlite, checkpoints, {
          // Through Kysely, which runs it between two transactions of this connection.
          onLongLog: () => {
            if (checkpointing) return;
            checkpointing = true;
            sql`pragma wal_checkpoint(PASSIVE)`
              .execute(db)
              .catch((err: unknown) => logger?.warn({ err }, "SQLite checkpoint failed"))
              .finally(() => {
                checkpointing = false;
              });
          },
          ...(logger && { logger }),
        });
  const writer = withStatementCache(sqlite, checkpointer?.wrote);
  const reader = file === ":memory:" ? undefined : withStatementCache(openReader(file, busyTimeoutMs));
  const writes = new WriteCounter();
  const db: Db = new Kysely<Database>({
    dialect: new QuireSqliteDialect(
      {
        ...writer,
        close() {
          checkpointer?.stop();
          reader?.close();
          writer.close();
        },
      },
      sqlite,
    ),
    plugins: [writes],
    ...(log && { log }),
  });
  writeCounters.set(db, writes);
  if (reader) readers.set(db, observed(reader, onStatement));
  return db;
}

/**
 * How much of the SQLite file both connections read through one shared memory map instead of each
 * copying pages into its own 2 MB cache: a search that visits 30,000 rows took 25 ms with the
 * cache, 17 ms mapped.
 */
const MMAP_BYTES = 256 * 1024 * 1024;

function openReader(file: string, busyTimeoutMs: number): SQLite.Database {
  const reader = new SQLite(file, { readonly: true });
  reader.pragma(`busy_timeout = ${busyTimeoutMs}`);
  reader.pragma(`mmap_size = ${MMAP_BYTES}`);
  return reader;
}

const readers = new WeakMap<Db, SqliteDatabase>();
const writeCounters = new WeakMap<Db, WriteCounter>();

/**
 * How many writes this process has sent to `db` so far (see `WriteCounter`): unchanged between two
 * looks, nothing was written here in between. Undefined for a database not opened by `openDatabase`.
 */
export const writesTo = (db: Db): number | undefined => writeCounters.get(db)?.count;

/** PostgreSQL, its transactions pipelined (`PipeliningPostgresDriver`). */
class PipeliningPostgresDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig;

  constructor(config: PostgresDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new PipeliningPostgresDriver(this.#config);
  }
}

/**
 * SQLite as the server runs it: its statements written for stable plans (below), its transactions
 * committed in groups (`GroupCommitSqliteDriver`).
 */
class QuireSqliteDialect extends SqliteDialect {
  readonly #statements: SqliteDatabase;
  readonly #sqlite: SQLite.Database;

  constructor(statements: SqliteDatabase, sqlite: SQLite.Database) {
    super({ database: statements });
    this.#statements = statements;
    this.#sqlite = sqlite;
  }

  override createQueryCompiler(): QueryCompiler {
    return new StablePlanSqliteCompiler();
  }

  /** The writer connection commits the transactions of one turn of the event loop together. */
  override createDriver(): Driver {
    return new GroupCommitSqliteDriver(this.#statements, this.#sqlite);
  }

  override createAdapter(): DialectAdapter {
    return new GroupCommitSqliteAdapter();
  }
}

/**
 * Writes each parameter as `+?`, which SQLite reads as the same value. A bare `?` in a `LIMIT`, or
 * compared with an indexed column, lets SQLite's planner look at its bound value (this build has
 * STAT4), and then every new binding re-prepares the statement: a page of 50 spaces spent 55 of
 * its 157 µs preparing its statement again. The plans stay the same; the cached statement is reused.
 */
class StablePlanSqliteCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return "+?";
  }
}

/**
 * A read-only connection to the same SQLite file, for `preparedRead`: in WAL mode it reads the last
 * committed state without waiting for the writer connection, which Kysely holds for the whole of a
 * transaction, and without seeing into it. Undefined for PostgreSQL and in-memory databases.
 */
export function sqliteReaderOf(db: Db): SqliteDatabase | undefined {
  return readers.get(db);
}

/** The read connection, telling `onStatement` of each statement it runs. */
function observed(database: SqliteDatabase, onStatement?: StatementObserver): SqliteDatabase {
  if (!onStatement) return database;
  return {
    close: () => database.close(),
    prepare(sql) {
      const statement = database.prepare(sql);
      return {
        reader: statement.reader,
        all: (parameters) => {
          onStatement(sql, parameters);
          return statement.all(parameters);
        },
        run: (parameters) => {
          onStatement(sql, parameters);
          return statement.run(parameters);
        },
        iterate: (parameters) => {
          onStatement(sql, parameters);
          return statement.iterate(parameters);
        },
      };
    },
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew, and preparing was the largest single cost of a request in the
 * benchmark profile. The SQL of our queries comes from a small set of shapes, so prepared statements
 * are kept by their SQL text (the oldest dropped past the limit) and reused.
 */
function withStatementCache(sqlite: SQLite.Database, afterRun?: () => void): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = afterRun ? toldOfRuns(sqlite.prepare(sql), afterRun) : sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE)
          statements.delete(statements.keys().next().value as string);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** A statement that calls `afterRun` each time it has run (the checkpoint thread waits for writes). */
function toldOfRuns(statement: SQLite.Statement, afterRun: () => void): SqliteStatement {
  return {
    reader: statement.reader,
    all(parameters) {
      const rows = statement.all(parameters);
      afterRun();
      return rows;
    },
    run(parameters) {
      const result = statement.run(parameters);
      afterRun();
      return result;
    },
    iterate: (parameters) => statement.iterate(parameters),
  };
}

/**
 * Brings the schema to the latest version; throws if a migration fails. Migrations apply in name
 * order, and one that sorts before those already applied (from a branch merged later) still applies.
 */
/**
 * The advisory lock of PostgreSQL's catalog as Kysely reads it: its introspection (which the migrator
 * runs) lists the tables of every schema, and fails on a table whose schema is dropped meanwhile.
 * Readers hold it shared; whoever drops a schema (the tests, each on a schema of its own) holds it
 * alone, for that statement only.
 */
export const CATALOG_LOCK = 7_290_241_115;

export async function migrate(db: Db, migrations: MigrationProvider = areaMigrations()): Promise<void> {
  await db.connection().execute(async (connection) => {
    const postgres = connection.getExecutor().adapter instanceof PostgresAdapter;
    let schema: string | undefined;
    if (postgres) {
      await sql`select pg_advisory_lock_shared(${CATALOG_LOCK})`.execute(connection);
      // A migration may rewrite a large table, or wait for another process's migrations.
      await sql`set statement_timeout = 0`.execute(connection);
      // Kysely looks for its tables in every schema unless told which one to use.
      const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
        connection,
      );
      schema = rows[0]?.schema ?? undefined;
    }
    try {
      const { error } = await new Migrator({
        db: connection,
        provider: migrations,
        allowUnorderedMigrations: true,
        ...(schema && { migrationTableSchema: schema }),
      }).migrateToLatest();
      if (error) throw error;
    } finally {
      if (postgres) {
        await sql`reset statement_timeout`.execute(connection);
        await sql`select pg_advisory_unlock_shared(${CATALOG_LOCK})`.execute(connection);
      }
    }
  });
}

/** Whether the database answers a trivial query within `timeoutMs`: the readiness check. */
export async function checkDatabase(db: Db, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, false);
  });
  const answered = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
