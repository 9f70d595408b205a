import { describe, expect, it } from "vitest";
import { contentTree } from "./content-tree.js";

const item = (id: string, title: string, parent?: string) => ({
  id,
  title,
  href: `/app/${id}`,
  ...(parent && { parent }),
});

describe("contentTree", () => {
  it("nests spaces and sub-collections under their collections, collections first, by title", () => {
    const tree = contentTree(
      [item("c2", "Zebra"), item("c1", "Alpha"), item("c3", "Inner", "c1")],
      [item("s1", "Loose"), item("s2", "Handbook", "c1"), item("s3", "Deep", "c3"), item("s4", "Another")],
    );
    const shape = (nodes: ReturnType<typeof contentTree>): unknown =>
      nodes.map((n) => (n.children.length ? [n.item.title, shape(n.children)] : n.item.title));
    expect(shape(tree)).toEqual([["Alpha", [["Inner", ["Deep"]], "Handbook"]], "Zebra", "Another", "Loose"]);
  });

  it("keeps at the top what names a parent it cannot see", () => {
    const tree = contentTree([item("c1", "Mine", "hidden")], [item("s1", "Orphan", "gone")]);
    expect(tree.map((n) => n.item.title)).toEqual(["Mine", "Orphan"]);
  });
});
