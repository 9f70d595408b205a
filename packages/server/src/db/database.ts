import { mkdirSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import pg from "pg";
import * as initial from "./migrations/0001_initial.js";
import type { Database } from "./schema.js";

export type Db = Kysely<Database>;

/** Versioned migrations, applied in name order; never edit one that has shipped, add the next. */
const migrations: Record<string, Migration> = {
  "0001_initial": initial,
};

const staticMigrations: MigrationProvider = { getMigrations: async () => migrations };

export interface DatabaseOptions {
  /** A `postgres://` URL selects PostgreSQL; anything else is a directory for the SQLite file. */
  location: string;
}

/** Opens the database (SQLite in WAL mode by default, PostgreSQL for a postgres URL). */
export function openDatabase({ location }: DatabaseOptions): Db {
  if (/^postgres(ql)?:\/\//.test(location)) {
    return new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: location }) }),
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
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

/** Brings the schema to the latest version; throws if a migration fails. */
export async function migrate(db: Db): Promise<void> {
  const { error } = await new Migrator({ db, provider: staticMigrations }).migrateToLatest();
  if (error) throw error;
}
