import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { type Db, openDatabase } from "../db/database.js";

/**
 * The databases an area bench measures side by side: SQLite in a new directory, then PostgreSQL at
 * QUIRE_TEST_DATABASE_URL (when set) in a schema of its own. Each is given to `use` with a directory of
 * its own (blobs, caches), then dropped. `BENCH_DATABASES=sqlite` or `postgres` runs only that one.
 */
export async function onBenchDatabases(
  name: string,
  use: (kind: "sqlite" | "postgres", db: Db, directory: string) => Promise<void>,
): Promise<void> {
  const only = process.env.BENCH_DATABASES;
  if (only !== "postgres") {
    const directory = mkdtempSync(join(tmpdir(), `quire-${name}-bench-`));
    const sqliteDb = openDatabase({ location: directory });
    try {
      await use("sqlite", sqliteDb, directory);
    } finally {
      await sqliteDb.destroy();
      rmSync(directory, { recursive: true, force: true });
    }
  }
  if (only === "sqlite") return;

  const url = process.env.QUIRE_TEST_DATABASE_URL;
  if (!url) {
    console.log("PostgreSQL: skipped (no QUIRE_TEST_DATABASE_URL)");
    return;
  }
  const schema = `quire_bench_${randomBytes(6).toString("hex")}`;
  const location = new URL(url);
  location.searchParams.set("options", `-c search_path=${schema}`);
  const pgDb = openDatabase({ location: location.href });
  const pgDirectory = mkdtempSync(join(tmpdir(), `quire-${name}-bench-`));
  await sql`create schema ${sql.id(schema)}`.execute(pgDb);
  try {
    await use("postgres", pgDb, pgDirectory);
  } finally {
    await sql`drop schema ${sql.id(schema)} cascade`.execute(pgDb);
    await pgDb.destroy();
    rmSync(pgDirectory, { recursive: true, force: true });
  }
}
