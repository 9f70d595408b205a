import { mkdirSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, type LogEvent, PostgresDialect, type SqliteDatabase, SqliteDialect } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import pg from "pg";
import * as guests from "../organizations/migrations/202611221901_guest_memberships.js";
import * as counters from "../spaces/migrations/202611221900_space_read_path.js";
import * as initial from "./migrations/0001_initial.js";
import type { Database } from "./schema.js";

export type Db = Kysely<Database>;

/** Versioned migrations, applied in name order; never edit one that has shipped, add the next. */
const migrations: Record<string, Migration> = {
  "0001_initial": initial,
  "202611221900_space_read_path": counters,
  "202611221901_guest_memberships": guests,
};

const staticMigrations: MigrationProvider = { getMigrations: async () => migrations };

export interface DatabaseOptions {
  /** A `postgres://` URL selects PostgreSQL; anything else is a directory for the SQLite file. */
  location: string;
  /** Called with the SQL of every statement sent to the database (tests count them). */
  onStatement?: (sql: string) => void;
}

/** Opens the database (SQLite in WAL mode by default, PostgreSQL for a postgres URL). */
export function openDatabase({ location, onStatement }: DatabaseOptions): Db {
  const log = onStatement && ((event: LogEvent) => onStatement(event.query.sql));
  if (/^postgres(ql)?:\/\//.test(location)) {
    return new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: location }) }),
      ...(log && { log }),
    });
  }
  let file = ":memory:";
  if (location !== ":memory:") {
    mkdirSync(location, { recursive: true });
    file = join(location, "quire.sqlite");
  }
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const writer = withStatementCache(sqlite);
  const reader = file === ":memory:" ? undefined : withStatementCache(openReader(file));
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({
      database: {
        ...writer,
        close() {
          reader?.close();
          writer.close();
        },
      },
    }),
    ...(log && { log }),
  });
  if (reader) readers.set(db, observed(reader, onStatement));
  return db;
}

function openReader(file: string): SQLite.Database {
  const reader = new SQLite(file, { readonly: true });
  reader.pragma("busy_timeout = 5000");
  return reader;
}

const readers = new WeakMap<Db, SqliteDatabase>();

/**
 * A read-only connection to the same SQLite file, for `preparedRead`: in WAL mode it reads the last
 * committed state without waiting for the writer connection, which Kysely holds for the whole of a
 * transaction, and without seeing into it. Undefined for PostgreSQL and in-memory databases.
 */
export function sqliteReaderOf(db: Db): SqliteDatabase | undefined {
  return readers.get(db);
}

/** The read connection, telling `onStatement` of each statement it runs. */
function observed(database: SqliteDatabase, onStatement?: (sql: string) => void): SqliteDatabase {
  if (!onStatement) return database;
  return {
    close: () => database.close(),
    prepare(sql) {
      const statement = database.prepare(sql);
      return {
        reader: statement.reader,
        all: (parameters) => {
          onStatement(sql);
          return statement.all(parameters);
        },
        run: (parameters) => {
          onStatement(sql);
          return statement.run(parameters);
        },
        iterate: (parameters) => {
          onStatement(sql);
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
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE)
          statements.delete(statements.keys().next().value as string);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** Brings the schema to the latest version; throws if a migration fails. */
export async function migrate(db: Db): Promise<void> {
  const { error } = await new Migrator({ db, provider: staticMigrations }).migrateToLatest();
  if (error) throw error;
}
