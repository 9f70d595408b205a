import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeContents } from "./merge.js";
import { compareOrder } from "./order.js";
import { ContentDraft, PageTree } from "./pages.js";
import { MemoryContent } from "./testing.js";
import type { PageEntry } from "./trie.js";

const store = new MemoryContent();
const TIME = "2026-01-01T00:00:00.000Z";

function page(id: string, fields: Partial<Omit<PageEntry, "document">> & { body?: string } = {}): PageEntry {
  const { body = "", ...rest } = fields;
  return {
    id,
    parent: null,
    order: "a0",
    title: id,
    slug: id,
    createdAt: TIME,
    updatedAt: TIME,
    ...rest,
    document: store.saveDocument(body),
  };
}

const tree = (...pages: PageEntry[]) => new PageTree(pages);

describe("three-way merge of page trees", () => {
  it("lists every conflict with the page, its title, the field and both sides' values", async () => {
    const base = tree(page("p", { body: "a\nb\nc\n" }), page("q"), page("r"), page("s"));
    const ours = tree(
      page("p", { title: "P (mine)", body: "a\nB mine\nc\n" }),
      page("q", { title: "Q mine" }),
      page("s", { parent: "q" }),
    );
    const theirs = tree(
      page("p", { body: "a\nB theirs\nc\n" }),
      page("q", { title: "Q theirs" }),
      page("r", { title: "R edited" }),
      page("s"),
    );
    const outcome = await mergeContents(base, ours, theirs, store);
    expect(outcome.conflicts).toEqual(
      expect.arrayContaining([
        {
          page: "p",
          title: "P (mine)",
          field: "markdown",
          changeRequest: "a\nB mine\nc\n",
          main: "a\nB theirs\nc\n",
          base: "a\nb\nc\n",
        },
        { page: "q", title: "Q mine", field: "title", changeRequest: "Q mine", main: "Q theirs", base: "q" },
        // Deleted in the change request, edited in main.
        { page: "r", title: "R edited", field: "deleted" },
        // Moved by the change request under a page whose title conflicts: reported once, on that page.
      ]),
    );
    expect(outcome.conflicts).toHaveLength(3);
  });

  it("conflicts on a page left under a deleted parent, and on a cycle of moves", async () => {
    const base = tree(page("a"), page("b"));
    const orphan = await mergeContents(
      base,
      tree(page("a"), page("b"), page("c", { parent: "a" })),
      tree(page("b")),
      store,
    );
    expect(orphan.conflicts).toEqual([{ page: "c", title: "c", field: "parent", changeRequest: "a" }]);

    const cycle = await mergeContents(
      base,
      tree(page("a", { parent: "b" }), page("b")),
      tree(page("a"), page("b", { parent: "a" })),
      store,
    );
    expect(cycle.conflicts?.map((c) => [c.page, c.field]).sort()).toEqual([
      ["a", "parent"],
      ["b", "parent"],
    ]);
  });

  it("merges what does not clash: the other side's changes, identical changes, line-level edits", async () => {
    const base = tree(page("p", { body: "1\n2\n3\n4\n5\n" }), page("q"), page("gone"));
    const ours = tree(
      page("p", { body: "one\n2\n3\n4\n5\n" }),
      page("q", { title: "Same" }),
      page("new", { order: "a1" }),
    );
    const theirs = tree(
      page("p", { body: "1\n2\n3\n4\nfive\n" }),
      page("q", { title: "Same" }),
      page("other", { order: "a1" }),
    );
    const outcome = await mergeContents(base, ours, theirs, store);
    if (outcome.conflicts) throw new Error("unexpected conflicts");
    const merged = new PageTree(outcome.pages);
    expect(merged.get("q")?.title).toBe("Same");
    expect(merged.get("gone")).toBeUndefined();
    const body = (await store.documents([merged.get("p")?.document as string])).values().next().value;
    expect(body).toBe("one\n2\n3\n4\nfive\n");
    // Both inserted at the same place: distinct order keys, main's page first.
    const top = merged.children(null).map((entry) => entry.id);
    expect(top).toEqual(["p", "q", "other", "new"]);
    const keys = merged.children(null).map((entry) => entry.order);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...merged.children(null)].sort(compareOrder).map((entry) => entry.id)).toEqual(top);
  });
});

describe("three-way merge of group and link pages", () => {
  const group = (fields: Partial<PageEntry> = {}) => page("g", { kind: "group", ...fields });
  const link = (href: string, fields: Partial<PageEntry> = {}) =>
    page("l", { parent: "g", kind: "link", href, ...fields });

  it("takes the side that changed a link's href, with the other side's title", async () => {
    const base = tree(group(), link("https://a.example"));
    const outcome = await mergeContents(
      base,
      tree(group(), link("https://b.example")),
      tree(group({ title: "Guides" }), link("https://a.example", { title: "Site" })),
      store,
    );
    if (outcome.conflicts) throw new Error("unexpected conflicts");
    const merged = new PageTree(outcome.pages);
    expect(merged.get("l")).toMatchObject({ kind: "link", href: "https://b.example", title: "Site" });
    expect(merged.get("g")).toMatchObject({ kind: "group", title: "Guides", document: null });
    expect(merged.get("g")).not.toHaveProperty("href");
  });

  it("conflicts, as on a title, on hrefs both sides changed, and on a page one side made another kind", async () => {
    const base = tree(group(), link("https://a.example"), page("d", { body: "text" }));
    const outcome = await mergeContents(
      base,
      tree(group(), link("https://b.example"), page("d", { kind: "group" })),
      tree(group(), link("https://c.example"), page("d", { body: "more text" })),
      store,
    );
    expect(outcome.conflicts).toEqual([
      { page: "l", title: "l", field: "title", changeRequest: "l", main: "l", base: "l" },
      { page: "d", title: "d", field: "title", changeRequest: "d", main: "d", base: "d" },
    ]);
    // The same new href on both sides is no conflict.
    const same = await mergeContents(
      base,
      tree(group(), link("https://b.example"), page("d", { body: "text" })),
      tree(group(), link("https://b.example"), page("d", { body: "text" })),
      store,
    );
    if (same.conflicts) throw new Error("unexpected conflicts");
    expect(same.pages.find((entry) => entry.id === "l")?.href).toBe("https://b.example");
  });
});

/** An edit of one side, on pages it owns (by id), for the property below. */
type Edit =
  | { kind: "title"; page: string; text: string }
  | { kind: "body"; page: string; text: string }
  | { kind: "delete"; page: string }
  | { kind: "insert"; under: string | null; id: string; text: string }
  | { kind: "move"; page: string; under: string; index: number };

/** Applies the edits that still make sense (a page deleted by an earlier edit is skipped). */
function apply(draft: ContentDraft, edits: readonly Edit[]): void {
  const exists = (id: string | null) => id === null || draft.get(id) !== undefined;
  for (const edit of edits) {
    switch (edit.kind) {
      case "insert":
        if (exists(edit.under))
          draft.insert({
            id: edit.id,
            title: edit.text,
            parent: edit.under,
            placement: {},
            document: store.saveDocument(edit.text),
          });
        break;
      case "title":
        if (exists(edit.page)) draft.update(edit.page, { title: edit.text });
        break;
      case "body":
        if (exists(edit.page)) draft.update(edit.page, { document: store.saveDocument(edit.text) });
        break;
      case "delete":
        if (exists(edit.page)) draft.remove(edit.page);
        break;
      case "move":
        if (exists(edit.page) && exists(edit.under) && !draft.subtree(edit.page).includes(edit.under))
          draft.move(edit.page, edit.under, { index: edit.index });
    }
  }
}

const visible = (pages: Iterable<PageEntry>) =>
  Object.fromEntries(
    [...pages].map((p) => [p.id, { title: p.title, parent: p.parent, slug: p.slug, document: p.document }]),
  );

describe("three-way merge, property", () => {
  it("of edits of disjoint subtrees equals applying both sides' edits one after the other", async () => {
    // A base of top-level pages, each with a few children; each side owns some top-level subtrees.
    const baseArb = fc.array(fc.nat({ max: 3 }), { minLength: 2, maxLength: 6 }).map((childCounts) => {
      const draft = new ContentDraft([], TIME);
      for (const [i, count] of childCounts.entries()) {
        draft.insert({ id: `t${i}`, title: `Top ${i}`, parent: null, placement: {}, document: null });
        for (let j = 0; j < count; j++)
          draft.insert({
            id: `t${i}c${j}`,
            title: `Child ${j}`,
            parent: `t${i}`,
            placement: {},
            document: null,
          });
      }
      return [...draft.entries()];
    });
    const editsOf = (side: string, owned: string[]) => {
      const page = fc.constantFrom(...owned);
      const text = fc.string({ maxLength: 6 }).map((t) => `${side} ${t}`);
      return fc.array(
        fc.oneof(
          fc.record({ kind: fc.constant("title" as const), page, text }),
          fc.record({ kind: fc.constant("body" as const), page, text }),
          fc.record({ kind: fc.constant("delete" as const), page }),
          fc.record({
            kind: fc.constant("insert" as const),
            under: fc.option(page, { nil: null }),
            id: fc.uuid(),
            text,
          }),
          fc.record({ kind: fc.constant("move" as const), page, under: page, index: fc.nat({ max: 4 }) }),
        ),
        { maxLength: 8 },
      );
    };
    const arb = baseArb.chain((base) => {
      const tops = base.filter((p) => p.parent === null).map((p) => p.id);
      return fc.shuffledSubarray(tops, { minLength: 1, maxLength: tops.length - 1 }).chain((mineTops) => {
        const owned = (ofTops: string[]) =>
          base.filter((p) => ofTops.includes(p.parent ?? p.id)).map((p) => p.id);
        const theirTops = tops.filter((id) => !mineTops.includes(id));
        return fc.record({
          base: fc.constant(base),
          mine: editsOf("mine", owned(mineTops)),
          theirs: editsOf("theirs", owned(theirTops)),
        });
      });
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ base, mine, theirs }) => {
        const ours = new ContentDraft(base, TIME);
        apply(ours, mine);
        const main = new ContentDraft(base, TIME);
        apply(main, theirs);
        const both = new ContentDraft(base, TIME);
        apply(both, [...mine, ...theirs]);

        const outcome = await mergeContents(new PageTree(base), ours, main, store);
        if (outcome.conflicts) throw new Error(`conflicts: ${JSON.stringify(outcome.conflicts)}`);
        expect(visible(outcome.pages)).toEqual(visible(both.entries()));
      }),
      { numRuns: 300 },
    );
  });
});
