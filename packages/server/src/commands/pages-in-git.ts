import { isMapping } from "../content/mapping.js";
import type { Db } from "../db/database.js";
import { pageBlobs } from "../git-sync/index.js";

/**
 * The pages of a read (a page and those under it, a list of pages, a revision's), each with where the
 * space's repository keeps it as of the last Git Sync (GitBook's `git`: the file's object id and path),
 * which the git-sync area knows; pages it has no file for, and spaces not synced, are as they were.
 */
export async function withPagesInGit<Result extends { body: unknown }>(
  db: Db,
  spaceId: string,
  result: Result,
): Promise<Result> {
  const blobs = await pageBlobs(db, spaceId);
  if (blobs.size === 0) return result;
  const mark = (node: unknown): void => {
    if (!isMapping(node)) return;
    const blob = typeof node.id === "string" ? blobs.get(node.id) : undefined;
    // A revision's id is no page's: only pages are marked.
    if (blob && node.object !== "revision") node.git = blob;
    if (Array.isArray(node.pages)) for (const page of node.pages) mark(page);
  };
  mark(result.body);
  return result;
}
