import type { PageTree } from "../content/pages.js";
import type { PageEntry } from "../content/trie.js";
import { type FileTable, fileIdOfMarkdownUrl } from "../files/index.js";

export type LinkStatus = "ok" | "broken" | "in-app";

/** What a link points at, once resolved in a revision. */
export type LinkTarget =
  | { kind: "page"; page: PageEntry }
  | { kind: "file"; file: FileTable }
  | { kind: "url"; url: string }
  /** A page or file the revision does not have: no target reference. */
  | { kind: "missing" };

/** One target and the pages linking to it, in page-tree order. */
export interface ResolvedLink {
  key: string;
  status: LinkStatus;
  target: LinkTarget;
  locations: PageEntry[];
}

/** What a revision holds, to resolve links against. */
export interface RevisionIndex {
  tree: PageTree;
  files: Map<string, FileTable>;
  /** The server's public base URL: absolute links under it are `in-app`. */
  publicBase: string;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The pages of the tree, depth first, in order: the order links are listed in. */
export function pagesInOrder(tree: PageTree): PageEntry[] {
  const ordered: PageEntry[] = [];
  const walk = (parent: string | null) => {
    for (const entry of tree.children(parent)) {
      ordered.push(entry);
      walk(entry.id);
    }
  };
  walk(null);
  return ordered;
}

/** A path without its `?query` and `#fragment`, decoded when it can be. */
function bare(url: string): string {
  const cut = url.search(/[?#]/);
  const path = cut < 0 ? url : url.slice(0, cut);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The page a relative Markdown link names, by path, GitBook's way: the page at path `a/b` is the file
 * `a/b.md` (or `a/b/README.md`), so a link from it resolves against `a/`; `.md` and a final `README`
 * are dropped, `.` and `..` segments applied. Undefined when it climbs above the top level.
 */
export function relativePagePath(fromPath: string, link: string): string | undefined {
  const segments = fromPath.split("/").slice(0, -1);
  for (const segment of bare(link).split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else segments.push(segment);
  }
  let path = segments.join("/").replace(/\.md$/i, "");
  path = path.replace(/(^|\/)README$/i, "");
  return path;
}

/**
 * Resolves one link written on page `from`. The forms (behaviour §2.5):
 * `/pages/<id>` or `/pages/<path>` and relative paths (`./x.md`, `../x.md`, `x`) name a page;
 * `/files/<id>` (`fileMarkdownUrl`) a file; an absolute URL under the server's public URL is `in-app`,
 * any other absolute URL (http, https, mailto…) is `ok` and never fetched. A link to an anchor of the
 * same page (`#x`) is not a link between contents: undefined.
 */
export function resolveLink(
  index: RevisionIndex,
  paths: Map<string, PageEntry>,
  from: PageEntry,
  url: string,
): { key: string; status: LinkStatus; target: LinkTarget } | undefined {
  if (url.startsWith("#")) return undefined;
  if (SCHEME.test(url) || url.startsWith("//")) {
    const inApp = url === index.publicBase || url.startsWith(`${index.publicBase}/`);
    return { key: `url:${url}`, status: inApp ? "in-app" : "ok", target: { kind: "url", url } };
  }
  const fileId = fileIdOfMarkdownUrl(url);
  if (fileId !== undefined) {
    const file = index.files.get(fileId);
    return file
      ? { key: `file:${file.id}`, status: "ok", target: { kind: "file", file } }
      : { key: `missing-file:${fileId}`, status: "broken", target: { kind: "missing" } };
  }
  let page: PageEntry | undefined;
  let wanted: string | undefined;
  if (url.startsWith("/pages/")) {
    wanted = bare(url.slice("/pages/".length)).replace(/\/+$/, "");
    page = index.tree.get(wanted) ?? paths.get(wanted);
  } else if (url.startsWith("/")) {
    // A path of this server outside the content forms: a URL of the application, not a page.
    return { key: `url:${url}`, status: "in-app", target: { kind: "url", url } };
  } else {
    wanted = relativePagePath(index.tree.path(from), url);
    page = wanted === undefined ? undefined : paths.get(wanted);
  }
  return page
    ? { key: `page:${page.id}`, status: "ok", target: { kind: "page", page } }
    : { key: `missing-page:${wanted ?? url}`, status: "broken", target: { kind: "missing" } };
}

/**
 * The link targets of `pages` (each with its document's URLs in `links`), grouped by target in order
 * of first appearance, each with the pages linking to it.
 */
export function resolveLinks(
  index: RevisionIndex,
  pages: readonly PageEntry[],
  links: Map<string, string[]>,
): ResolvedLink[] {
  const ordered = pagesInOrder(index.tree);
  const paths = new Map(ordered.map((entry) => [index.tree.path(entry), entry]));
  // The space's root (a top-level `README.md`) is its first page.
  if (ordered[0]) paths.set("", ordered[0]);
  const targets = new Map<string, ResolvedLink>();
  for (const page of pages) {
    if (page.document === null) continue;
    for (const url of links.get(page.document) ?? []) {
      const resolved = resolveLink(index, paths, page, url);
      if (!resolved) continue;
      const known = targets.get(resolved.key);
      if (!known) targets.set(resolved.key, { ...resolved, locations: [page] });
      else if (!known.locations.includes(page)) known.locations.push(page);
    }
  }
  return [...targets.values()];
}
