import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";

const FILE = "quire.sqlite";

/**
 * Copies the SQLite database of `dataDir` to `destination` with SQLite's online backup, which reads
 * a consistent state while the server keeps writing. Returns the number of pages copied.
 */
export async function backupSqlite(dataDir: string, destination: string): Promise<number> {
  const source = join(dataDir, FILE);
  if (!existsSync(source)) throw new Error(`No Quire database in ${dataDir}`);
  if (existsSync(destination)) throw new Error(`${destination} exists already: choose a new file`);
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    const { totalPages } = await db.backup(destination);
    return totalPages;
  } finally {
    db.close();
  }
}

/**
 * Puts a backup in place of the database of `dataDir`, once checked: a sound SQLite file that holds
 * Quire's tables. The server must be stopped: while one has the database open its shared-memory
 * file exists, and the restore refuses.
 */
export async function restoreSqlite(backup: string, dataDir: string): Promise<void> {
  const target = join(dataDir, FILE);
  if (existsSync(`${target}-shm`))
    throw new Error(`The database in ${dataDir} is open (by a running server?): stop it, then restore`);
  const db = new SQLite(backup, { readonly: true, fileMustExist: true });
  try {
    const [check] = db.pragma("integrity_check") as { integrity_check: string }[];
    if (check?.integrity_check !== "ok") throw new Error(`${backup} is damaged: ${check?.integrity_check}`);
    const quire = db.prepare("select 1 from sqlite_master where name = 'kysely_migration'").get();
    if (!quire) throw new Error(`${backup} is not a Quire database`);
  } catch (error) {
    if (error instanceof SQLite.SqliteError) throw new Error(`${backup} is not a SQLite database`);
    throw error;
  } finally {
    db.close();
  }
  // Through a copy beside the target, so that the database is replaced whole or not at all.
  const copy = `${target}.restoring`;
  rmSync(copy, { force: true });
  const source = new SQLite(backup, { readonly: true });
  try {
    await source.backup(copy);
  } finally {
    source.close();
  }
  rmSync(`${target}-wal`, { force: true });
  renameSync(copy, target);
}
