import type { Schema } from "@quire/client";

type Page = Schema<"RevisionPage">;

/** One shown row of the Pages tree, with what its treeitem's ARIA attributes say. */
export interface TreeRow {
  page: Page;
  /** 1 at the top level. */
  level: number;
  /** How many siblings it has (itself included) and its place among them, from 1. */
  setSize: number;
  posInSet: number;
  /** Index of its parent's row; undefined at the top level. */
  parent: number | undefined;
  /** It has child pages shown in the tree; `expanded` says whether they are. */
  expandable: boolean;
  expanded: boolean;
}

/**
 * The rows the tree shows: every top-level page, then the children of each expanded page under it.
 * Hidden pages are left out, as on a published site, unless `withHidden` (a writer edits them too).
 * Iterative, so 5,000 pages cost one pass and no deep recursion.
 */
export function visibleRows(
  pages: readonly Page[],
  expanded: ReadonlySet<string>,
  withHidden = false,
): TreeRow[] {
  const shownIn = (list: readonly Page[] | undefined) =>
    (list ?? []).filter((page) => withHidden || !page.hidden);
  const rows: TreeRow[] = [];
  const stack: { siblings: Page[]; next: number; level: number; parent: number | undefined }[] = [
    { siblings: shownIn(pages), next: 0, level: 1, parent: undefined },
  ];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (!top) break;
    const page = top.siblings[top.next];
    if (!page) {
      stack.pop();
      continue;
    }
    top.next += 1;
    const children = shownIn(page.pages);
    const isOpen = children.length > 0 && expanded.has(page.id);
    rows.push({
      page,
      level: top.level,
      setSize: top.siblings.length,
      posInSet: top.next,
      parent: top.parent,
      expandable: children.length > 0,
      expanded: isOpen,
    });
    if (isOpen) stack.push({ siblings: children, next: 0, level: top.level + 1, parent: rows.length - 1 });
  }
  return rows;
}

/** Every page of the tree, depth first. */
export function everyPage(pages: readonly Page[]): Page[] {
  return pages.flatMap((page) => [page, ...everyPage(page.pages ?? [])]);
}

/** The pages above the page at `path`, top first (to expand so it shows); empty when none is there. */
export function ancestorsOf(pages: readonly Page[], path: string): string[] {
  for (const page of pages) {
    if (page.path === path) return [];
    const below = ancestorsOf(page.pages ?? [], path);
    if (below.length > 0 || (page.pages ?? []).some((child) => child.path === path))
      return [page.id, ...below];
  }
  return [];
}

/** What a key does in the tree (WAI-ARIA APG tree view): focus another row, or open or close one. */
export type TreeMove = { focus: number } | { expand: string } | { collapse: string };

/** The move `key` makes from row `index` of `rows`; undefined when the key is not the tree's. */
export function treeKey(rows: readonly TreeRow[], index: number, key: string): TreeMove | undefined {
  const row = rows[index];
  if (!row) return undefined;
  switch (key) {
    case "ArrowDown":
      return { focus: Math.min(index + 1, rows.length - 1) };
    case "ArrowUp":
      return { focus: Math.max(index - 1, 0) };
    case "Home":
      return { focus: 0 };
    case "End":
      return { focus: rows.length - 1 };
    case "ArrowRight":
      if (!row.expandable) return undefined;
      return row.expanded ? { focus: index + 1 } : { expand: row.page.id };
    case "ArrowLeft":
      if (row.expanded) return { collapse: row.page.id };
      return row.parent === undefined ? undefined : { focus: row.parent };
    default:
      return undefined;
  }
}
