import type { PageTree } from "../content/pages.js";
import type { PageEntry } from "../content/trie.js";

/** Most pages in one export, as GitBook's own limit: a larger space is exported a part at a time. */
export const PDF_MAX_PAGES = 100;

/**
 * The pages of an export in reading order (each page, then its children), from `root` (every page
 * when absent) or `root` alone with `only`; at most `PDF_MAX_PAGES`. Bodies are filled in later. A
 * group is its title, a heading over its pages; a link leads out of the document and is left out.
 */
export function exportedPages(
  tree: PageTree,
  root: PageEntry | undefined,
  only: boolean,
): { entry: PageEntry; depth: number }[] {
  const pages: { entry: PageEntry; depth: number }[] = [];
  const visit = (entry: PageEntry, depth: number) => {
    if (pages.length >= PDF_MAX_PAGES || entry.kind === "link") return;
    pages.push({ entry, depth });
    if (!only) for (const child of tree.children(entry.id)) visit(child, depth + 1);
  };
  if (root) visit(root, 0);
  else for (const entry of tree.children(null)) visit(entry, 0);
  return pages;
}
