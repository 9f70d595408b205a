import type { Schema } from "@quire/api-types";
import type { Db } from "../db/database.js";
import type { Urls } from "../urls.js";
import { usersByIds } from "../users/index.js";
import { type CommentView, type CommentViewer, presentComment } from "./presenter.js";
import { type CommentParent, type CommentRow, commentsByIds, reactionsOf, repliersOf } from "./store.js";
import type { CommentReplyTable } from "./tables.js";
import { targetPagesOf } from "./targets.js";

/**
 * A parent as presenters see it: where it is in the API, which revision is its content now, and who
 * looks at it (what they may do with each comment and reply depends on it).
 */
export interface ParentView extends CommentParent {
  path: string;
  revisionId: string;
  viewer: CommentViewer;
}

/** Group `rows` by `key`, each group in the order of `rows`. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row)) ?? [];
    list.push(row);
    groups.set(key(row), list);
  }
  return groups;
}

async function viewOf(
  db: Db,
  urls: Urls,
  parent: ParentView,
  subjects: readonly { id: string; posted_by: string; resolved_by?: string | null }[],
  extra: Pick<CommentView, "pages" | "repliers">,
): Promise<CommentView> {
  const reactions = await reactionsOf(
    db,
    subjects.map((s) => s.id),
  );
  const users = await usersByIds(db, [
    ...subjects.flatMap((s) => [s.posted_by, ...(s.resolved_by ? [s.resolved_by] : [])]),
    ...reactions.map((r) => r.user_id),
    ...[...extra.repliers.values()].flatMap((repliers) => repliers.map((r) => r.posted_by)),
  ]);
  return {
    urls,
    parentPath: parent.path,
    viewer: parent.viewer,
    users,
    reactions: groupBy(reactions, (reaction) => reaction.subject_id),
    ...extra,
  };
}

/** What presenting these comments needs: their users, reactions, repliers and target pages. */
export async function commentsView(
  db: Db,
  urls: Urls,
  parent: ParentView,
  rows: readonly CommentRow[],
): Promise<CommentView> {
  const pages = await targetPagesOf(db, parent.spaceId, parent.revisionId, rows);
  const repliers = await repliersOf(
    db,
    rows.map((row) => row.id),
  );
  return viewOf(db, urls, parent, rows, { pages, repliers: groupBy(repliers, (r) => r.comment_id) });
}

/** What presenting these replies needs: their users and reactions. */
export function repliesView(
  db: Db,
  urls: Urls,
  parent: ParentView,
  rows: readonly CommentReplyTable[],
): Promise<CommentView> {
  return viewOf(db, urls, parent, rows, { pages: new Map(), repliers: new Map() });
}

/** The parent's comments of these ids, as the API shows them, by id; those deleted since are absent. */
export async function presentedComments(
  db: Db,
  urls: Urls,
  parent: ParentView,
  ids: readonly string[],
): Promise<Map<string, Schema<"Comment">>> {
  const rows = await commentsByIds(db, parent, ids);
  const view = await commentsView(db, urls, parent, rows);
  return new Map(rows.map((row) => [row.id, presentComment(row, view)]));
}
