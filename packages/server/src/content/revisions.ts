import type { Db } from "../db/database.js";
import { notFound } from "../http/errors.js";
import { PageTree } from "./pages.js";
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

/** The page tree of a revision. */
export async function treeOf(storage: ContentStorage, revision: RevisionTable): Promise<PageTree> {
  return new PageTree(await allEntries(storage, revision.root));
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
