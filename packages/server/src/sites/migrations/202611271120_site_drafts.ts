import type { Kysely } from "kysely";

/**
 * Drafts of a site's structure (GitBook's `draft`): a draft section, section group or site space is
 * kept out of the published site until it is made live. A site space may also carry its own title
 * in the site (GitBook's `title` on addSpaceToSite), the space's title otherwise.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["site_sections", "site_section_groups", "site_spaces"])
    await db.schema
      .alterTable(table)
      .addColumn("draft", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  await db.schema.alterTable("site_spaces").addColumn("title", "text").execute();
}
