import type { Kysely } from "kysely";

/** Each page's file as of the last sync, its object id and path in the repository (GitBook's `RevisionPage.git`). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("git_sync_pages").addColumn("blob_oid", "text").execute();
  await db.schema.alterTable("git_sync_pages").addColumn("repository_path", "text").execute();
}
