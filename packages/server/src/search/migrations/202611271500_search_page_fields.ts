import { type Kysely, sql } from "kysely";

/**
 * The description and the ancestors' titles of each indexed page, shown with it in search results.
 * Rows indexed before hold neither, so every space is marked not indexed: each is indexed again, its
 * old rows replaced, on the first search that reaches it (as `indexStaleSpaces` does for any space
 * whose index is behind), rather than parsing every page of every space here, during start-up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("search_sections")
    .addColumn("page_description", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("search_sections")
    .addColumn("page_ancestors", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await sql`delete from search_spaces`.execute(db);
}
