import { type Kysely, sql } from "kysely";
import { isSqlite } from "../engine.js";

/**
 * PostgreSQL: no parallel workers for scans of `search_sections`. A common word matches most
 * sections, and the planner then splits the scan and its ranking over workers; measured on a
 * 10,000-page index (2 cores), that doubled the query (30 ms serial, 56–68 ms parallel), as the
 * workers' start and the gathering outweigh the work split. Searches are many small concurrent
 * queries, which are better served one core each.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`alter table search_sections set (parallel_workers = 0)`.execute(db);
}
