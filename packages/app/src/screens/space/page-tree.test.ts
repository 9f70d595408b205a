import type { Schema } from "@quire/client";
import { describe, expect, it } from "vitest";
import { ancestorsOf, treeKey, visibleRows } from "./page-tree.js";

type Page = Schema<"RevisionPage">;

const page = (id: string, pages: Page[] = [], fields: Partial<Page> = {}): Page => ({
  id,
  title: id,
  type: "document",
  path: id,
  pages,
  ...fields,
});

const tree = [
  page("guide", [page("guide/install", [page("guide/install/linux")]), page("guide/use")]),
  page("secret", [], { hidden: true }),
  page("faq"),
];

describe("the Pages tree's rows", () => {
  it("shows the top level, and the children of expanded pages with their level and place", () => {
    expect(visibleRows(tree, new Set()).map((row) => row.page.id)).toEqual(["guide", "faq"]);
    // Where pages are written, hidden ones are shown too.
    expect(visibleRows(tree, new Set(), true).map((row) => [row.page.id, row.setSize])).toEqual([
      ["guide", 3],
      ["secret", 3],
      ["faq", 3],
    ]);
    const rows = visibleRows(tree, new Set(["guide", "guide/install"]));
    expect(rows.map((row) => [row.page.id, row.level, row.posInSet, row.setSize, row.parent])).toEqual([
      ["guide", 1, 1, 2, undefined],
      ["guide/install", 2, 1, 2, 0],
      ["guide/install/linux", 3, 1, 1, 1],
      ["guide/use", 2, 2, 2, 0],
      ["faq", 1, 2, 2, undefined],
    ]);
    expect(rows.map((row) => [row.expandable, row.expanded])).toEqual([
      [true, true],
      [true, true],
      [false, false],
      [false, false],
      [false, false],
    ]);
  });

  it("flattens 5,000 pages quickly", () => {
    const many = Array.from({ length: 50 }, (_, i) =>
      page(
        `p${i}`,
        Array.from({ length: 99 }, (_, j) => page(`p${i}-${j}`)),
      ),
    );
    const started = performance.now();
    const rows = visibleRows(many, new Set(many.map((p) => p.id)));
    expect(rows).toHaveLength(5000);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it("finds the pages above a path, to expand", () => {
    expect(ancestorsOf(tree, "guide/install/linux")).toEqual(["guide", "guide/install"]);
    expect(ancestorsOf(tree, "faq")).toEqual([]);
    expect(ancestorsOf(tree, "nowhere")).toEqual([]);
  });
});

describe("the Pages tree's keys", () => {
  const rows = visibleRows(tree, new Set(["guide"]));
  it("moves up, down, home and end, within the rows", () => {
    expect(treeKey(rows, 0, "ArrowDown")).toEqual({ focus: 1 });
    expect(treeKey(rows, 3, "ArrowDown")).toEqual({ focus: 3 });
    expect(treeKey(rows, 0, "ArrowUp")).toEqual({ focus: 0 });
    expect(treeKey(rows, 2, "Home")).toEqual({ focus: 0 });
    expect(treeKey(rows, 0, "End")).toEqual({ focus: 3 });
    expect(treeKey(rows, 0, "a")).toBeUndefined();
  });

  it("opens, enters, closes and leaves with right and left", () => {
    expect(treeKey(rows, 1, "ArrowRight")).toEqual({ expand: "guide/install" });
    expect(treeKey(rows, 0, "ArrowRight")).toEqual({ focus: 1 });
    expect(treeKey(rows, 3, "ArrowRight")).toBeUndefined();
    expect(treeKey(rows, 0, "ArrowLeft")).toEqual({ collapse: "guide" });
    expect(treeKey(rows, 2, "ArrowLeft")).toEqual({ focus: 0 });
    expect(treeKey(rows, 3, "ArrowLeft")).toBeUndefined();
  });
});
