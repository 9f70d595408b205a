import { PostgresAdapter, sql } from "kysely";
import type { Db } from "./database.js";

/**
 * A queue table kept small on PostgreSQL. PostgreSQL keeps a deleted row until VACUUM removes it, and
 * autovacuum looks at a table once a minute at best (never where it is turned off): a table whose rows
 * are deleted soon after they are inserted fills with dead rows, which every read of it walks past.
 * The returned function is told how many rows a change deleted; once `rows` have gone since the last
 * vacuum, it vacuums `table`, outside any transaction, so that reading it stays proportional to its
 * live rows. SQLite frees a deleted row's space at once: nothing to do there.
 */
export function vacuumEvery(table: string, rows: number): (db: Db, deleted: number) => Promise<void> {
  const deletedSince = new WeakMap<Db, number>();
  return async (db, deleted) => {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    const total = (deletedSince.get(db) ?? 0) + deleted;
    if (total < rows) {
      deletedSince.set(db, total);
      return;
    }
    deletedSince.set(db, 0);
    // SKIP_LOCKED: another process vacuuming it does as well. TRUNCATE false: giving back the file's
    // empty end locks the table's writers out for a moment; its space is reused instead.
    await sql`vacuum (skip_locked, truncate false) ${sql.table(table)}`.execute(db);
  };
}
