import type { Schema } from "@quire/api-types";
import { changeRequestsMergedAs } from "../change-requests/index.js";
import { listMainRevisions } from "../content/revisions.js";
import type { Db } from "../db/database.js";
import { type PageQuery, presentPage } from "../http/paging.js";
import type { Urls } from "../urls.js";
import { usersByIds } from "../users/index.js";

/**
 * A page of a space's main-content history, newest first: each revision with who made it and the
 * change request it merged, so that "who changed this and when" is one call. Three statements a page
 * whatever its length: the revisions, then their authors and their change requests.
 */
export async function revisionHistory(
  db: Db,
  urls: Urls,
  spaceId: string,
  query: PageQuery,
): Promise<Schema<"RevisionHistoryEntryPage">> {
  const page = await listMainRevisions(db, { spaceId }, query);
  const authorIds = page.rows.flatMap((revision) =>
    revision.author_id === null ? [] : [revision.author_id],
  );
  const [authorById, changeRequests] = await Promise.all([
    usersByIds(db, authorIds),
    changeRequestsMergedAs(
      db,
      spaceId,
      page.rows.map((revision) => revision.id),
    ),
  ]);
  const mergedBy = new Map(changeRequests.map((row) => [row.revision_merged_id, row]));
  return presentPage(page, (revision) => {
    const author = revision.author_id === null ? undefined : authorById.get(revision.author_id);
    const merged = mergedBy.get(revision.id);
    return {
      object: "revision" as const,
      id: revision.id,
      type: revision.type,
      parents: [revision.parent_id, revision.merge_parent_id].filter((id) => id !== null),
      createdAt: revision.created_at,
      ...(author && { author: { id: author.id, displayName: author.display_name } }),
      ...(merged && {
        changeRequest: {
          id: merged.id,
          number: merged.number,
          subject: merged.subject,
        },
      }),
      urls: { app: urls.app(`spaces/${spaceId}/revisions/${revision.id}`) },
    };
  });
}
