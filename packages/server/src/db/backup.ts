import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { readSecretKeyFile, writeSecretKeyFile } from "../auth/secret-key.js";

const FILE = "quire.sqlite";
/** Where a backup carries the generated secret key: a table of backups only, which a restore removes. */
const KEY_TABLE = "quire_backup_secret_key";

/**
 * Copies the SQLite database of `dataDir` to `destination` with SQLite's online backup, which reads
 * a consistent state while the server keeps writing, with the generated secret key unless
 * `QUIRE_SECRET_KEY` is set (`keyConfigured`). The file is readable by this user alone, since it
 * holds the key. Returns its size in bytes.
 */
export async function backupSqlite(
  dataDir: string,
  destination: string,
  { keyConfigured }: { keyConfigured: boolean },
): Promise<number> {
  const source = join(dataDir, FILE);
  if (!existsSync(source)) throw new Error(`No Quire database in ${dataDir}`);
  const key = keyConfigured ? undefined : await readSecretKeyFile(dataDir);
  try {
    // Created here rather than by SQLite, to be this user's alone and never to overwrite a file.
    closeSync(openSync(destination, "wx", 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw new Error(`${destination} exists already: choose a new file`);
    throw error;
  }
  try {
    const db = new SQLite(source, { readonly: true, fileMustExist: true });
    try {
      await db.backup(destination);
    } finally {
      db.close();
    }
    if (key !== undefined) {
      const copy = new SQLite(destination, { fileMustExist: true });
      try {
        copy.exec(`create table ${KEY_TABLE} (value text not null)`);
        copy.prepare(`insert into ${KEY_TABLE} (value) values (?)`).run(key);
      } finally {
        copy.close();
      }
    }
  } catch (error) {
    rmSync(destination, { force: true });
    throw error;
  }
  return statSync(destination).size;
}

/**
 * Puts a backup in place of the database of `dataDir`, once checked: a sound SQLite file that holds
 * Quire's tables. The secret key it carries goes back into the data directory, unless
 * `QUIRE_SECRET_KEY` is set (`keyConfigured`); returns whether it did. The server must be stopped:
 * while one has the database open its shared-memory file exists, and the restore refuses.
 */
export async function restoreSqlite(
  backup: string,
  dataDir: string,
  { keyConfigured }: { keyConfigured: boolean },
): Promise<boolean> {
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
  mkdirSync(dataDir, { recursive: true });
  const copy = `${target}.restoring`;
  rmSync(copy, { force: true });
  const source = new SQLite(backup, { readonly: true });
  try {
    await source.backup(copy);
  } finally {
    source.close();
  }
  const key = takeKey(copy);
  if (key !== undefined && !keyConfigured) await writeSecretKeyFile(dataDir, key);
  rmSync(`${target}-wal`, { force: true });
  renameSync(copy, target);
  return key !== undefined && !keyConfigured;
}

/** The secret key a backup carries, removed from the copy: the database itself never holds it. */
function takeKey(file: string): string | undefined {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    if (!db.prepare("select 1 from sqlite_master where name = ?").get(KEY_TABLE)) return undefined;
    const row = db.prepare(`select value from ${KEY_TABLE}`).get() as { value: string } | undefined;
    // Overwritten, not only unlinked: free pages would still hold the key.
    db.pragma("secure_delete = on");
    db.exec(`drop table ${KEY_TABLE}`);
    return row?.value;
  } finally {
    db.close();
  }
}
