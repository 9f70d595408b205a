import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryContent } from "./testing.js";
import { allEntries, decodeNode, encodeNode, type PageEntry, updateTrie } from "./trie.js";

const entry = (id: string, title = id): PageEntry => ({
  id,
  parent: null,
  order: "a0",
  title,
  slug: id,
  document: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});

const sortById = (entries: PageEntry[]) => [...entries].sort((a, b) => a.id.localeCompare(b.id));

describe("the page trie", () => {
  it("holds exactly the pages put in it, and equal sets of pages have equal roots", async () => {
    const id = fc.integer({ min: 0, max: 400 }).map((n) => `page${n}`);
    const operation = fc.oneof(
      fc.record({ put: id, title: fc.constantFrom("x", "y") }),
      fc.record({ remove: id }),
    );
    await fc.assert(
      fc.asyncProperty(
        // Large batches, so that leaves split into branches and branches fold back into leaves.
        fc.array(fc.array(operation, { minLength: 20, maxLength: 300 }), { minLength: 1, maxLength: 6 }),
        async (batches) => {
          const store = new MemoryContent();
          const model = new Map<string, PageEntry>();
          let root: string | null = null;
          for (const batch of batches) {
            root = await updateTrie(
              store,
              root,
              batch.map((op) => ("put" in op ? [op.put, entry(op.put, op.title)] : [op.remove, null])),
            );
            for (const op of batch) {
              if ("put" in op) model.set(op.put, entry(op.put, op.title));
              else model.delete(op.remove);
            }
            expect(sortById(await allEntries(store, root))).toEqual(sortById([...model.values()]));
          }
          // The same pages built in one go give the same root: the shape depends on the pages alone.
          const rebuilt = await updateTrie(
            new MemoryContent(),
            null,
            [...model.values()].map((e) => [e.id, e]),
          );
          expect(rebuilt).toBe(root);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("writes only a few small nodes for one change among a thousand pages", async () => {
    const store = new MemoryContent();
    const pages = Array.from({ length: 1000 }, (_, i) => entry(`page${i}`, `A page title number ${i}`));
    const root = await updateTrie(
      store,
      null,
      pages.map((e) => [e.id, e]),
    );
    const before = new Set(store.nodes.keys());
    await updateTrie(store, root, [["page500", entry("page500", "Renamed")]]);
    const written = [...store.nodes].filter(([hash]) => !before.has(hash));
    expect(written.length).toBeLessThanOrEqual(4);
    expect(written.reduce((bytes, [, text]) => bytes + text.length, 0)).toBeLessThan(10_000);
  });

  it("stores a document's entry as before pages had kinds, and groups and links with theirs", async () => {
    const document = { ...entry("doc"), document: "hash1" };
    // The encoding of a document page is the one of nodes stored before kinds: same text, same hash.
    const text = encodeNode({ kind: "leaf", entries: [document] });
    expect(text).toBe(
      '{"l":[["doc",null,"a0","doc","doc","hash1","2026-01-01T00:00:00.000Z","2026-01-01T00:00:00.000Z"]]}',
    );
    const decoded = decodeNode(text);
    expect(decoded).toEqual({ kind: "leaf", entries: [document] });
    expect(decoded.kind === "leaf" && Object.keys(decoded.entries[0] as PageEntry)).not.toContain("kind");

    const group: PageEntry = { ...entry("group"), kind: "group" };
    const link: PageEntry = {
      ...entry("link"),
      parent: "group",
      kind: "link",
      href: "https://example.com/a?b=c",
    };
    const node = { kind: "leaf" as const, entries: [document, group, link] };
    const encoded = encodeNode(node);
    expect(JSON.parse(encoded).l.map((item: unknown[]) => item.slice(8))).toEqual([
      [],
      ["group"],
      ["link", "https://example.com/a?b=c"],
    ]);
    expect(decodeNode(encoded)).toEqual(node);

    const store = new MemoryContent();
    const root = await updateTrie(
      store,
      null,
      node.entries.map((e) => [e.id, e]),
    );
    expect(sortById(await allEntries(store, root))).toEqual(sortById(node.entries));
  });
});
