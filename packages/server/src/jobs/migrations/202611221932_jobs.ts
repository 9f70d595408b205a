import { type Kysely, sql } from "kysely";

/** The background jobs of every server process, claimed through the database (see src/jobs/runner.ts). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (c) => c.primaryKey().notNull())
    .addColumn("task", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("run_at", "text", (c) => c.notNull())
    .addColumn("interval_ms", "integer")
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("claimed_by", "text")
    .addColumn("last_error", "text")
    .addColumn("failed_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // What a claim scans: the jobs not given up on, by when they are due.
  await db.schema
    .createIndex("jobs_due")
    .on("jobs")
    .columns(["run_at", "id"])
    .where(sql.ref("failed_at"), "is", null)
    .execute();
}
