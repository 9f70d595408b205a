import { References, referencedFile } from "../content/engine/references.js";
import type { PageTree } from "../content/pages.js";
import type { PageEntry } from "../content/trie.js";
import type { FileTable } from "../files/index.js";

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
  /** The file of each page in the space's Git repository, which its relative links are written from. */
  pageFiles: ReadonlyMap<string, string>;
}

/**
 * Resolves one link written on page `from` (see `References.resolve`) into what the links API shows: a
 * link to a place on the same page is not a link between contents (undefined).
 */
export function resolveLink(
  index: RevisionIndex,
  references: References,
  from: PageEntry,
  url: string,
): { key: string; status: LinkStatus; target: LinkTarget } | undefined {
  const reference = references.resolve(from, url);
  switch (reference.kind) {
    case "fragment":
      return undefined;
    case "url":
      return {
        key: `url:${url}`,
        status: reference.inApp ? "in-app" : "ok",
        target: { kind: "url", url },
      };
    case "file": {
      const file = referencedFile(index.files, reference);
      const wanted = "fileId" in reference ? reference.fileId : reference.fileName;
      return file
        ? { key: `file:${file.id}`, status: "ok", target: { kind: "file", file } }
        : { key: `missing-file:${wanted}`, status: "broken", target: { kind: "missing" } };
    }
    case "page":
      return {
        key: `page:${reference.page.id}`,
        status: "ok",
        target: { kind: "page", page: reference.page },
      };
    case "missing-page":
      return { key: `missing-page:${reference.wanted}`, status: "broken", target: { kind: "missing" } };
  }
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
  const references = new References(index.tree, index.publicBase, index.pageFiles);
  const targets = new Map<string, ResolvedLink>();
  for (const page of pages) {
    if (page.document === null) continue;
    for (const url of links.get(page.document) ?? []) {
      const resolved = resolveLink(index, references, page, url);
      if (!resolved) continue;
      const known = targets.get(resolved.key);
      if (!known) targets.set(resolved.key, { ...resolved, locations: [page] });
      else if (!known.locations.includes(page)) known.locations.push(page);
    }
  }
  return [...targets.values()];
}
