import type { Schema } from "@quire/api-types";
import type { PageTree } from "../content/pages.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import type { Db } from "../db/database.js";
import type { CommentRecord } from "./tables.js";

type TargetPage = Schema<"CommentTargetPage">;

/** The page trees of a space's revisions, each read once. */
export function pageTrees(db: Db, spaceId: string) {
  const storage = new ContentStorage(db, spaceId);
  const trees = new Map<string, Promise<PageTree>>();
  return (revisionId: string): Promise<PageTree> => {
    let tree = trees.get(revisionId);
    if (!tree) {
      tree = revisionOf(db, spaceId, revisionId).then((revision) => treeOf(storage, revision));
      trees.set(revisionId, tree);
    }
    return tree;
  };
}

/**
 * The pages the comments are about, by comment id: as they are in the parent's current revision,
 * or, once gone from it, as they were when the comment was posted, marked `outdated`.
 */
export async function targetPagesOf(
  db: Db,
  spaceId: string,
  currentRevisionId: string,
  comments: readonly Pick<CommentRecord, "id" | "target_page_id" | "target_revision_id">[],
): Promise<Map<string, TargetPage>> {
  const pages = new Map<string, TargetPage>();
  const targeted = comments.filter((c) => c.target_page_id !== null);
  if (targeted.length === 0) return pages;
  const treeOfRevision = pageTrees(db, spaceId);
  const current = await treeOfRevision(currentRevisionId);
  for (const comment of targeted) {
    const pageId = comment.target_page_id as string;
    let tree = current;
    let entry = current.get(pageId);
    if (!entry) {
      tree = await treeOfRevision(comment.target_revision_id);
      entry = tree.get(pageId);
    }
    pages.set(comment.id, {
      id: pageId,
      // The page was in the revision the comment was posted on; only a corrupt store loses it.
      title: entry?.title ?? "",
      path: entry ? tree.path(entry) : "",
      ...(entry && { createdAt: entry.createdAt, updatedAt: entry.updatedAt }),
      outdated: tree !== current,
    });
  }
  return pages;
}
