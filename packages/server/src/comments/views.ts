import type { Schema } from "@quire/api-types";
import type { Db } from "../db/database.js";
import type { Urls } from "../urls.js";
import { usersByIds } from "../users/index.js";
import { type CommentView, presentComment } from "./presenter.js";
import { type CommentParent, type CommentRow, commentsByIds, reactionsOf } from "./store.js";
import type { CommentReactionTable, CommentReplyTable } from "./tables.js";
import { targetPagesOf } from "./targets.js";

/** A parent as presenters see it: where it is in the API and which revision is its content now. */
export interface ParentView extends CommentParent {
  path: string;
  revisionId: string;
}

async function viewOf(
  db: Db,
  urls: Urls,
  parent: ParentView,
  subjects: readonly { id: string; posted_by: string; resolved_by?: string | null }[],
  pages: CommentView["pages"],
): Promise<CommentView> {
  const reactions = await reactionsOf(
    db,
    subjects.map((s) => s.id),
  );
  const users = await usersByIds(db, [
    ...subjects.flatMap((s) => [s.posted_by, ...(s.resolved_by ? [s.resolved_by] : [])]),
    ...reactions.map((r) => r.user_id),
  ]);
  const bySubject = new Map<string, CommentReactionTable[]>();
  for (const reaction of reactions) {
    const list = bySubject.get(reaction.subject_id) ?? [];
    list.push(reaction);
    bySubject.set(reaction.subject_id, list);
  }
  return { urls, parentPath: parent.path, users, reactions: bySubject, pages };
}

/** What presenting these comments needs: their users, reactions and target pages. */
export async function commentsView(
  db: Db,
  urls: Urls,
  parent: ParentView,
  rows: readonly CommentRow[],
): Promise<CommentView> {
  const pages = await targetPagesOf(db, parent.spaceId, parent.revisionId, rows);
  return viewOf(db, urls, parent, rows, pages);
}

/** What presenting these replies needs: their users and reactions. */
export function repliesView(
  db: Db,
  urls: Urls,
  parent: ParentView,
  rows: readonly CommentReplyTable[],
): Promise<CommentView> {
  return viewOf(db, urls, parent, rows, new Map());
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
