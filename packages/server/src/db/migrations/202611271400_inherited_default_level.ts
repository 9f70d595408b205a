import type { Kysely } from "kysely";

/**
 * GitBook's `defaultLevel: "inherit"` on collections and spaces: 1 when the row's `default_level`
 * follows its parent collection's (the organization's floor, `read`, at the top level), kept up to
 * date by `settleInheritedLevels` (src/content/tree.ts) whenever a level or the tree changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["collections", "spaces"])
    await db.schema
      .alterTable(table)
      .addColumn("default_level_inherited", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
}
