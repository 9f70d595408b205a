import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { CATALOG_LOCK, type DatabaseOptions, type Db, openDatabase } from "../db/database.js";

/** The database the tests run on, chosen per vitest project (see vitest.config.ts). */
export const testDatabaseKind: "sqlite" | "postgres" =
  process.env.QUIRE_TEST_DB === "postgres" ? "postgres" : "sqlite";

export interface TestDatabase {
  /** Empty until migrated. */
  db: Db;
  /** What `openDatabase` was given: the SQLite directory or the PostgreSQL URL. */
  location: string;
  close(): Promise<void>;
}

/**
 * Runs `work`, which drops tables or schemas, alone on PostgreSQL's catalog (in a transaction holding
 * CATALOG_LOCK): another test's migration or introspection, which reads the tables of every schema,
 * must not see them half gone. On SQLite, whose file is the test's own, it just runs.
 */
export async function aloneOnTheCatalog(db: Db, work: (db: Db) => Promise<unknown>): Promise<void> {
  if (testDatabaseKind === "sqlite") {
    await work(db);
    return;
  }
  await db.transaction().execute(async (tx) => {
    // Waiting for another test's migration is no stuck statement: the server's timeout is not for it.
    await sql`set local statement_timeout = 0`.execute(tx);
    await sql`select pg_advisory_xact_lock(${CATALOG_LOCK})`.execute(tx);
    await work(tx);
  });
}

/**
 * A database of its own, empty: a SQLite file in a new directory, or a new schema of the PostgreSQL
 * database at QUIRE_TEST_DATABASE_URL, which tests running in parallel never see into.
 */
export async function openTestDatabase(
  options: Omit<DatabaseOptions, "location"> = {},
): Promise<TestDatabase> {
  if (testDatabaseKind === "sqlite") {
    const location = mkdtempSync(join(tmpdir(), "quire-test-"));
    const db = openDatabase({ ...options, location });
    return {
      db,
      location,
      async close() {
        await db.destroy();
        rmSync(location, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.QUIRE_TEST_DATABASE_URL;
  if (!url) throw new Error("QUIRE_TEST_DB=postgres needs QUIRE_TEST_DATABASE_URL.");
  const schema = `quire_test_${randomBytes(6).toString("hex")}`;
  const location = new URL(url);
  // Every connection of the pool resolves unqualified names in the new schema alone.
  location.searchParams.set("options", `-c search_path=${schema}`);
  const db = openDatabase({ ...options, location: location.href });
  await sql`create schema ${sql.id(schema)}`.execute(db);
  return {
    db,
    location: location.href,
    async close() {
      try {
        await aloneOnTheCatalog(db, (tx) => sql`drop schema ${sql.id(schema)} cascade`.execute(tx));
      } finally {
        await db.destroy();
      }
    },
  };
}

/**
 * The tables of this test's database, as the migrations declare them. On PostgreSQL, Kysely's
 * introspection lists the tables of every schema, other tests' included (with tables of migrations
 * this test does not have): only the test's own schema counts. What the database engine keeps for
 * full-text search (FTS5 tables, generated columns) is left out.
 */
export async function ownTables(db: Db) {
  const tables =
    testDatabaseKind === "sqlite"
      ? await db.introspection.getTables()
      : await db.connection().execute(async (connection) => {
          await sql`select pg_advisory_lock_shared(${CATALOG_LOCK})`.execute(connection);
          try {
            return await connection.introspection.getTables();
          } finally {
            await sql`select pg_advisory_unlock_shared(${CATALOG_LOCK})`.execute(connection);
          }
        });
  if (testDatabaseKind === "sqlite") {
    // A virtual table (FTS5) and the shadow tables SQLite keeps for it are the engine's, not ours.
    const { rows: virtual } = await sql<{ name: string }>`select name from sqlite_master
      where type = 'table' and sql like 'create virtual table%'`.execute(db);
    const engines = virtual.map(({ name }) => name);
    return tables.filter(
      (table) => !engines.some((name) => table.name === name || table.name.startsWith(`${name}_`)),
    );
  }
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  // A generated column (a search document) is the engine's index material, kept by the database.
  const { rows: generated } = await sql<{ name: string }>`select table_name || '.' || column_name as name
    from information_schema.columns where table_schema = current_schema() and is_generated = 'ALWAYS'`.execute(
    db,
  );
  const engines = new Set(generated.map(({ name }) => name));
  return tables
    .filter((table) => table.schema === rows[0]?.schema)
    .map((table) => ({
      ...table,
      columns: table.columns.filter((column) => !engines.has(`${table.name}.${column.name}`)),
    }));
}
