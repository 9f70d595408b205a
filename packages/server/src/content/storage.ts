import { fromJson, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { contentEngine } from "./engine/index.js";
import { contentHash } from "./hash.js";
import { saveDocumentLinks } from "./links.js";
import { type PageMeta, pageMetaOf } from "./page-meta.js";
import { RecentlyUsed } from "./recently-used.js";
import { decodeNode, type NodeStore, type TrieNode } from "./trie.js";

/**
 * Nodes never change once written, and a node's hash is its content: every process may keep the
 * decoded ones it has read, whichever space or transaction read them. A node holds at most 32 pages.
 */
const nodeCache = new RecentlyUsed<TrieNode>(10_000);

const IN_LIST_CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += IN_LIST_CHUNK) result.push(items.slice(i, i + IN_LIST_CHUNK));
  return result;
}

/**
 * A space's stored content seen through one connection or transaction: trie nodes and page bodies,
 * read by hash, and new ones kept until `flush` writes them (a row that exists already is left as it is).
 */
export class ContentStorage implements NodeStore {
  readonly #pendingNodes = new Map<string, string>();
  readonly #pendingDocuments = new Map<string, string>();

  constructor(
    readonly db: Db,
    readonly spaceId: string,
  ) {}

  async load(hashes: readonly string[]): Promise<Map<string, TrieNode>> {
    const found = new Map<string, TrieNode>();
    const missing: string[] = [];
    for (const hash of hashes) {
      const node = nodeCache.get(hash) ?? this.#pendingNode(hash);
      if (node) found.set(hash, node);
      else missing.push(hash);
    }
    for (const [hash, body] of await this.#read("content_nodes", "body", missing)) {
      const node = decodeNode(body);
      nodeCache.set(hash, node);
      found.set(hash, node);
    }
    for (const hash of missing)
      if (!found.has(hash)) throw new Error(`content node ${hash} of space ${this.spaceId} is missing`);
    return found;
  }

  #pendingNode(hash: string): TrieNode | undefined {
    const text = this.#pendingNodes.get(hash);
    return text === undefined ? undefined : decodeNode(text);
  }

  /** Stored texts by hash, in chunks of a few hundred. */
  async #read(table: "content_nodes" | "content_documents", column: "body" | "markdown", hashes: string[]) {
    const texts = new Map<string, string>();
    for (const part of chunks(hashes)) {
      const rows = await this.db
        .selectFrom(table)
        .select(["hash", `${column} as text`])
        .where("space_id", "=", this.spaceId)
        .where("hash", "in", part)
        .execute();
      for (const row of rows) texts.set(row.hash, row.text);
    }
    return texts;
  }

  save(node: TrieNode, text: string): string {
    const hash = contentHash(text);
    this.#pendingNodes.set(hash, text);
    nodeCache.set(hash, node);
    return hash;
  }

  /** Stores a page body, returning its hash; an empty body is no document (null). */
  saveDocument(markdown: string): string | null {
    if (markdown === "") return null;
    const hash = contentHash(markdown);
    this.#pendingDocuments.set(hash, markdown);
    return hash;
  }

  /** The bodies of these documents, by hash. */
  async documents(hashes: Iterable<string>): Promise<Map<string, string>> {
    const bodies = new Map<string, string>();
    const missing: string[] = [];
    for (const hash of new Set(hashes)) {
      const pending = this.#pendingDocuments.get(hash);
      if (pending === undefined) missing.push(hash);
      else bodies.set(hash, pending);
    }
    for (const [hash, markdown] of await this.#read("content_documents", "markdown", missing))
      bodies.set(hash, markdown);
    return bodies;
  }

  /** The bodies of pages by their document (null: an empty page), in their order: "" for none. */
  async bodies(documents: readonly (string | null)[]): Promise<string[]> {
    const found = await this.documents(documents.filter((hash) => hash !== null));
    return documents.map((hash) => (hash === null ? "" : (found.get(hash) ?? "")));
  }

  /** The page metadata of these stored documents' front matter, by hash; none for a body without. */
  async pageMeta(hashes: Iterable<string>): Promise<Map<string, PageMeta>> {
    const found = new Map<string, PageMeta>();
    for (const part of chunks([...new Set(hashes)])) {
      const rows = await this.db
        .selectFrom("content_documents")
        .select(["hash", "meta"])
        .where("space_id", "=", this.spaceId)
        .where("hash", "in", part)
        .where("meta", "is not", null)
        .execute();
      for (const { hash, meta } of rows) if (meta !== null) found.set(hash, fromJson(meta));
    }
    return found;
  }

  /** Writes what was saved since the last flush. Inside the transaction of the revision that uses it. */
  async flush(): Promise<void> {
    for (const part of chunks([...this.#pendingNodes])) {
      await this.db
        .insertInto("content_nodes")
        .values(part.map(([hash, body]) => ({ space_id: this.spaceId, hash, body })))
        .onConflict((oc) => oc.columns(["space_id", "hash"]).doNothing())
        .execute();
    }
    // A body's links and page metadata are read once, when it is written, so that listing them
    // never parses.
    const documents = [...this.#pendingDocuments];
    const analyses = await contentEngine().analyzeAll(documents.map(([, markdown]) => markdown));
    const rows = documents.map(([hash, markdown], i) => {
      const meta = pageMetaOf(analyses[i]?.frontMatter);
      return { space_id: this.spaceId, hash, markdown, meta: meta ? toJson(meta) : null };
    });
    for (const part of chunks(rows))
      await this.db
        .insertInto("content_documents")
        .values(part)
        .onConflict((oc) => oc.columns(["space_id", "hash"]).doNothing())
        .execute();
    await saveDocumentLinks(this.db, this.spaceId, documents, analyses);
    this.#pendingNodes.clear();
    this.#pendingDocuments.clear();
  }
}
