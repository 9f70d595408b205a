import { contentHash } from "./hash.js";
import { decodeNode, type NodeStore, type TrieNode } from "./trie.js";

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
