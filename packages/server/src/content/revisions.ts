import type { Db } from "../db/database.js";
import { notFound } from "../http/errors.js";
import { keysetList } from "../http/paging.js";
import { PageTree } from "./pages.js";
import { RecentlyUsed } from "./recently-used.js";
import type { ContentStorage } from "./storage.js";
import type { RevisionTable } from "./tables.js";
import { allEntries } from "./trie.js";

/** Revisions never change: rows read outside a transaction (so surely committed) are kept. */
const committed = new Map<string, RevisionTable>();
const COMMITTED_MAX = 10_000;

/** A revision of the space, or 404: one of another space is not found either. */
export async function revisionOf(db: Db, spaceId: string, revisionId: string): Promise<RevisionTable> {
  let revision = committed.get(revisionId);
  if (!revision) {
    revision = await db.selectFrom("revisions").selectAll().where("id", "=", revisionId).executeTakeFirst();
    if (revision && !db.isTransaction) {
      if (committed.size >= COMMITTED_MAX) committed.delete(committed.keys().next().value as string);
      committed.set(revisionId, revision);
    }
  }
  if (!revision || revision.space_id !== spaceId) throw notFound("Revision");
  return revision;
}

/**
 * Page trees by trie root. A root is the hash of the pages under it, so its tree never changes and is
 * the same in whichever space or transaction it is read: each is built once (most revisions of a space
 * share it with the reads that follow), and reading one page costs the same in a space of 10 pages as in
 * one of 10,000. Bounded by the pages held.
 */
const trees = new RecentlyUsed<PageTree>(200_000, (tree) => Math.max(1, tree.size));

/** The page tree of a revision: shared, never to be changed (a `ContentDraft` is built from `allEntries`). */
export async function treeOf(storage: ContentStorage, revision: RevisionTable): Promise<PageTree> {
  if (revision.root === null) return new PageTree([]);
  let tree = trees.get(revision.root);
  if (!tree) {
    tree = new PageTree(await allEntries(storage, revision.root));
    trees.set(revision.root, tree);
  }
  return tree;
}

/** Stores a new revision with the content saved in `storage` (flushed here). Inside a transaction. */
export async function insertRevision(
  tx: Db,
  storage: ContentStorage,
  revision: RevisionTable,
): Promise<RevisionTable> {
  await storage.flush();
  await tx.insertInto("revisions").values(revision).execute();
  return revision;
}

/**
 * A page of a space's main-content history, newest first (ids are time-ordered): its first revision
 * and each merge, which is how the main content changes. A change request's revisions are `edits` and
 * `update`s on top of a main revision, so none of them is listed.
 */
export const listMainRevisions = keysetList(
  (db, args: { spaceId: string }) =>
    db
      .selectFrom("revisions")
      .selectAll()
      .where("space_id", "=", args.spaceId)
      .where((eb) => eb.or([eb("type", "=", "merge"), eb("parent_id", "is", null)])),
  { id: "string" },
  { descending: true },
);

/** The empty first revision of a new space (no pages, no files): nothing to flush. */
export async function insertFirstRevision(
  tx: Db,
  { id, spaceId, now }: { id: string; spaceId: string; now: string },
): Promise<void> {
  await tx
    .insertInto("revisions")
    .values({ id, space_id: spaceId, parent_id: null, type: "edits", created_at: now })
    .execute();
}
