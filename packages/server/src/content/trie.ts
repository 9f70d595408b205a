import { createHash } from "node:crypto";

/**
 * The pages of a revision, as a persistent hash trie (a HAMT) keyed by page id. A node is stored once
 * by the hash of its text and never changed; a new revision writes only the nodes on the paths to the
 * pages it changed and shares every other node with the revision it came from. So one edit in a space
 * of a thousand pages writes a few small nodes, and a revision holds no copy of the pages it did not
 * change. The shape depends only on the set of pages (a subtree of at most `LEAF_MAX` pages is always
 * one leaf), so equal contents have equal roots however they came about.
 */

/** A page as a revision stores it. The body is stored apart, by its hash (`document`). */
export interface PageEntry {
  id: string;
  /** The parent page; null at the top level. */
  parent: string | null;
  /** Sort key among the siblings (src/content/order.ts). */
  order: string;
  title: string;
  /** Slug within the parent, fixed when the page is inserted. */
  slug: string;
  /** Hash of the body (its `documentId`); null when the body is empty, and for groups and links. */
  document: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * What the page is when not a document: a group (a title over child pages, no body) or a link (a
   * title and `href`). Absent for documents, so that their stored nodes stay as they were.
   */
  kind?: PageKind;
  /** Where a link page leads; links only. */
  href?: string;
}

/** The kinds of page besides documents. */
export type PageKind = "group" | "link";

/** A child of a branch: its hash and how many pages are under it. */
interface ChildRef {
  hash: string;
  count: number;
}

export type TrieNode =
  | { kind: "leaf"; entries: PageEntry[] }
  | { kind: "branch"; children: (ChildRef | null)[] };

/** Where nodes are read from and written to; see src/content/storage.ts. */
export interface NodeStore {
  /** The nodes of these hashes; every hash must exist. */
  load(hashes: readonly string[]): Promise<Map<string, TrieNode>>;
  /** Stores a node (written when the caller flushes), returning its hash. */
  save(node: TrieNode, text: string): string;
}

const FANOUT_BITS = 4;
const FANOUT = 1 << FANOUT_BITS;
/** Most pages a leaf holds before it splits: a leaf of 32 pages is about 6 KB. */
const LEAF_MAX = 32;
/** 32 bits of the id's hash are used; past them a leaf holds whatever collides. */
const MAX_DEPTH = 32 / FANOUT_BITS;

type Encoded = { l: (string | null)[][] } | { b: ([string, number] | 0)[] };

/**
 * A page as a leaf stores it: its fields in order, then its kind and href only when it has them. A
 * document's array is as it was before pages had kinds: its node, and so its hash, are unchanged.
 */
function encodeEntry(e: PageEntry): (string | null)[] {
  const fields = [e.id, e.parent, e.order, e.title, e.slug, e.document, e.createdAt, e.updatedAt];
  if (e.kind === undefined) return fields;
  return e.href === undefined ? [...fields, e.kind] : [...fields, e.kind, e.href];
}

export function encodeNode(node: TrieNode): string {
  const encoded: Encoded =
    node.kind === "leaf"
      ? { l: node.entries.map(encodeEntry) }
      : { b: node.children.map((c) => (c ? [c.hash, c.count] : 0)) };
  return JSON.stringify(encoded);
}

export function decodeNode(text: string): TrieNode {
  const encoded = JSON.parse(text) as Encoded;
  if ("l" in encoded) {
    return {
      kind: "leaf",
      entries: encoded.l.map(
        ([id, parent, order, title, slug, document, createdAt, updatedAt, kind, href]) => ({
          id: id as string,
          parent: parent ?? null,
          order: order as string,
          title: title as string,
          slug: slug as string,
          document: document ?? null,
          createdAt: createdAt as string,
          updatedAt: updatedAt as string,
          // Nodes stored before pages had kinds end at `updatedAt`: their pages are documents.
          ...(kind != null && { kind: kind as PageKind }),
          ...(href != null && { href }),
        }),
      ),
    };
  }
  return { kind: "branch", children: encoded.b.map((c) => (c === 0 ? null : { hash: c[0], count: c[1] })) };
}

function slotOf(id: string, depth: number): number {
  const hash = createHash("sha256").update(id).digest();
  const byte = hash[depth >> 1] as number;
  return depth % 2 === 0 ? byte >> 4 : byte & 0x0f;
}

/** Every page under `root`, in no particular order; one read per level of the trie. */
export async function allEntries(store: NodeStore, root: string | null): Promise<PageEntry[]> {
  const entries: PageEntry[] = [];
  let level = root === null ? [] : [root];
  while (level.length > 0) {
    const nodes = await store.load(level);
    const next: string[] = [];
    for (const hash of level) {
      const node = nodes.get(hash) as TrieNode;
      if (node.kind === "leaf") entries.push(...node.entries);
      else for (const child of node.children) if (child) next.push(child.hash);
    }
    level = next;
  }
  return entries;
}

/** A change to one page: its new entry, or null to remove it. */
export type PageChange = [id: string, entry: PageEntry | null];

/** The root of the trie holding `root`'s pages with `changes` applied; writes only the new nodes. */
export async function updateTrie(
  store: NodeStore,
  root: string | null,
  changes: readonly PageChange[],
): Promise<string | null> {
  if (changes.length === 0) return root;
  const count = root === null ? 0 : await countOf(store, root);
  return (await update(store, root === null ? null : { hash: root, count }, 0, changes))?.hash ?? null;
}

async function countOf(store: NodeStore, hash: string): Promise<number> {
  const node = (await store.load([hash])).get(hash) as TrieNode;
  return node.kind === "leaf"
    ? node.entries.length
    : node.children.reduce((sum, child) => sum + (child?.count ?? 0), 0);
}

async function update(
  store: NodeStore,
  ref: ChildRef | null,
  depth: number,
  changes: readonly PageChange[],
): Promise<ChildRef | null> {
  const node: TrieNode =
    ref === null ? { kind: "leaf", entries: [] } : ((await store.load([ref.hash])).get(ref.hash) as TrieNode);
  if (node.kind === "leaf") {
    const byId = new Map(node.entries.map((entry) => [entry.id, entry]));
    for (const [id, entry] of changes) {
      if (entry) byId.set(id, entry);
      else byId.delete(id);
    }
    return build(store, [...byId.values()], depth);
  }
  const bySlot = new Map<number, PageChange[]>();
  for (const change of changes) {
    const slot = slotOf(change[0], depth);
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), change]);
  }
  const children = [...node.children];
  for (const [slot, slotChanges] of bySlot)
    children[slot] = await update(store, children[slot] ?? null, depth + 1, slotChanges);
  const count = children.reduce((sum, child) => sum + (child?.count ?? 0), 0);
  if (count === 0) return null;
  // Few enough pages left under this branch: it becomes one leaf again, as if built from scratch.
  if (count <= LEAF_MAX) {
    const entries: PageEntry[] = [];
    for (const child of children) if (child) entries.push(...(await allEntries(store, child.hash)));
    return build(store, entries, depth);
  }
  return saveNode(store, { kind: "branch", children }, count);
}

/** The subtree holding exactly `entries` at `depth`. */
async function build(store: NodeStore, entries: PageEntry[], depth: number): Promise<ChildRef | null> {
  if (entries.length === 0) return null;
  if (entries.length <= LEAF_MAX || depth === MAX_DEPTH) {
    const sorted = [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return saveNode(store, { kind: "leaf", entries: sorted }, sorted.length);
  }
  const slots: PageEntry[][] = Array.from({ length: FANOUT }, () => []);
  for (const entry of entries) slots[slotOf(entry.id, depth)]?.push(entry);
  const children: (ChildRef | null)[] = [];
  for (const slot of slots) children.push(await build(store, slot, depth + 1));
  return saveNode(store, { kind: "branch", children }, entries.length);
}

function saveNode(store: NodeStore, node: TrieNode, count: number): ChildRef {
  return { hash: store.save(node, encodeNode(node)), count };
}
