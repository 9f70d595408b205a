import type { Kysely } from "kysely";

/**
 * Secrets of the server itself, by name: on PostgreSQL the generated secret key
 * (src/auth/secret-key.ts), which every process of the deployment shares. SQLite keeps it in a file
 * of the data directory instead, and leaves this table empty.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("server_secrets")
    .addColumn("name", "text", (c) => c.primaryKey().notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
}
