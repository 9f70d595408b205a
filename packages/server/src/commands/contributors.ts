import type { Schema } from "@quire/api-types";
import { type ChangeRequestRow, contributorsOf } from "../change-requests/index.js";
import { commentersOf } from "../comments/index.js";
import type { Db } from "../db/database.js";
import type { Urls } from "../urls.js";
import { presentUserIn, usersByIds } from "../users/index.js";

type Contribution = Omit<Schema<"ChangeRequestUserContributor">, "user">;

/**
 * Who took part in a change request, most active first: its editors (who created it or changed its
 * content) from the change requests area, its commenters from the comments area; an editor who also
 * commented is listed as editing.
 */
export async function changeRequestContributors(
  db: Db,
  urls: Urls,
  changeRequest: ChangeRequestRow,
): Promise<Schema<"ChangeRequestUserContributorPage">> {
  const [editors, commenters] = await Promise.all([
    contributorsOf(db, changeRequest.id),
    commentersOf(db, { spaceId: changeRequest.space_id, changeRequestId: changeRequest.id }),
  ]);
  const contributions = new Map<string, Contribution>();
  for (const row of commenters)
    contributions.set(row.posted_by, {
      actionType: "comment",
      count: Number(row.posts),
      updatedAt: row.last_posted_at,
    });
  for (const row of editors)
    contributions.set(row.user_id, {
      actionType: "edit",
      count: row.changes,
      ...(row.changed_at !== null && { updatedAt: row.changed_at }),
    });
  const users = await usersByIds(db, contributions.keys());
  const items = [...contributions]
    .map(([id, contribution]) => ({ user: presentUserIn(users, id, urls), ...contribution }))
    .sort(
      (a, b) =>
        b.count - a.count ||
        (b.updatedAt ?? "").localeCompare(a.updatedAt ?? "") ||
        a.user.id.localeCompare(b.user.id),
    );
  return { count: items.length, items };
}
