import type { Kysely } from "kysely";
import { toJson } from "../../db/codecs.js";
import type { Database } from "../../db/schema.js";
import { spaceGitSyncOf } from "../remote.js";

/** `Space.gitSync` of the spaces connected before the spaces' row held it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const typed = db as unknown as Kysely<Database>;
  const connections = await typed
    .selectFrom("git_sync_connections")
    .select(["space_id", "url", "tree_url", "updated_at"])
    .execute();
  for (const connection of connections)
    await typed
      .updateTable("spaces")
      .set({ git_sync: toJson(spaceGitSyncOf(connection, connection.updated_at)) })
      .where("id", "=", connection.space_id)
      .execute();
}
