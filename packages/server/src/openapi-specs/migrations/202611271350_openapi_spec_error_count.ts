import { type Kysely, sql } from "kysely";

/**
 * How many errors the last processing of a specification found. Earlier failures recorded only
 * their code: they count as the one error known of them until their next processing counts again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("openapi_specs")
    .addColumn("last_processed_error_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update openapi_specs set last_processed_error_count = 1 where last_process_error_code is not null`.execute(
    db,
  );
}
