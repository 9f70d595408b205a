import type { Db } from "../db/database.js";
import { contentHash } from "./hash.js";
import { ContentDraft } from "./pages.js";
import { insertRevision, revisionOf, treeOf } from "./revisions.js";
import { ContentStorage } from "./storage.js";
import { decodeNode, type NodeStore, type TrieNode, updateTrie } from "./trie.js";

/** Nodes and bodies kept in memory, for tests of the content logic without a database. */
export class MemoryContent implements NodeStore {
  readonly nodes = new Map<string, string>();
  readonly bodies = new Map<string, string>();

  async load(hashes: readonly string[]): Promise<Map<string, TrieNode>> {
    return new Map(hashes.map((hash) => [hash, decodeNode(this.nodes.get(hash) as string)]));
  }

  save(_node: TrieNode, text: string): string {
    const hash = contentHash(text);
    this.nodes.set(hash, text);
    return hash;
  }

  saveDocument(markdown: string): string | null {
    if (markdown === "") return null;
    const hash = contentHash(markdown);
    this.bodies.set(hash, markdown);
    return hash;
  }

  async documents(hashes: Iterable<string>): Promise<Map<string, string>> {
    return new Map([...hashes].map((hash) => [hash, this.bodies.get(hash) as string]));
  }
}

/**
 * Makes `edit` of a space's main content its new revision, written straight to storage: for content
 * no API request makes (group and link pages). The search index catches up at the next search, as
 * for any content changed otherwise than by a merge.
 */
export async function editMainContent(
  db: Db,
  { spaceId, revisionId, now }: { spaceId: string; revisionId: string; now: string },
  edit: (draft: ContentDraft, storage: ContentStorage) => void,
): Promise<void> {
  const space = await db
    .selectFrom("spaces")
    .select("revision_id")
    .where("id", "=", spaceId)
    .executeTakeFirstOrThrow();
  const storage = new ContentStorage(db, spaceId);
  const current = await revisionOf(db, spaceId, space.revision_id);
  const draft = new ContentDraft((await treeOf(storage, current)).entries(), now);
  edit(draft, storage);
  await insertRevision(db, storage, {
    id: revisionId,
    space_id: spaceId,
    parent_id: current.id,
    merge_parent_id: null,
    type: "edits",
    root: await updateTrie(storage, current.root, draft.pageChanges()),
    author_id: null,
    created_at: now,
  });
  await db.updateTable("spaces").set({ revision_id: revisionId }).where("id", "=", spaceId).execute();
}
