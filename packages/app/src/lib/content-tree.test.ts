import { describe, expect, it } from "vitest";
import { canMoveInto, contentTree, moved, moveTargets, removed, retitled } from "./content-tree.js";

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

describe("moving", () => {
  // Outer holds Inner, which holds Deepest; Other is apart.
  const collections = [
    item("outer", "Outer"),
    item("inner", "Inner", "outer"),
    item("deepest", "Deepest", "inner"),
    item("other", "Other"),
  ];

  it("lets a space go anywhere but where it is", () => {
    const space = { kind: "space" as const, id: "s", parent: "inner" };
    expect(canMoveInto(collections, space, "inner")).toBe(false);
    expect(canMoveInto(collections, space, "deepest")).toBe(true);
    expect(canMoveInto(collections, space, undefined)).toBe(true);
    expect(canMoveInto(collections, { kind: "space", id: "t" }, undefined)).toBe(false);
  });

  it("never puts a collection into itself or anything it holds", () => {
    const inner = { kind: "collection" as const, id: "inner", parent: "outer" };
    expect(canMoveInto(collections, inner, "inner")).toBe(false);
    expect(canMoveInto(collections, inner, "deepest")).toBe(false);
    expect(canMoveInto(collections, inner, "other")).toBe(true);
    expect(moveTargets(collections, inner)).toEqual([
      { id: "other", label: "Other" },
      { id: "outer", label: "Outer" },
    ]);
  });

  it("names each target by its path of titles, and survives a cycle in the data", () => {
    const space = { kind: "space" as const, id: "s" };
    expect(moveTargets(collections, space).map((target) => target.label)).toEqual([
      "Other",
      "Outer",
      "Outer › Inner",
      "Outer › Inner › Deepest",
    ]);
    const cycle = [item("a", "A", "b"), item("b", "B", "a")];
    expect(moveTargets(cycle, space).map((target) => target.label)).toEqual(["A › B", "B › A"]);
  });
});

describe("the cached lists' updates", () => {
  const list = [
    { id: "c", title: "Collection", parent: "top" },
    { id: "s", title: "Space", parent: "c" },
  ];

  it("retitles and moves one item, leaving the others as they were", () => {
    expect(retitled(list, "s", "New")[1]).toEqual({ id: "s", title: "New", parent: "c" });
    expect(moved(list, "s", undefined)[1]?.parent).toBeUndefined();
    expect(moved(list, "s", "top")[0]).toBe(list[0]);
  });

  it("removes an item; what it held moves up to its parent", () => {
    expect(removed(list, "c", "top")).toEqual([{ id: "s", title: "Space", parent: "top" }]);
  });
});
