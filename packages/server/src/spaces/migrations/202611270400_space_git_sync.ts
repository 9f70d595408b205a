import type { Kysely } from "kysely";

/**
 * `Space.gitSync` on the space's row, so that reading a space reads one row: the Git Sync area keeps it
 * in step with its connection (`setSpaceGitSync`), and fills it in for spaces connected before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("spaces").addColumn("git_sync", "text").execute();
}
