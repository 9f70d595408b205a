import { contentEngine } from "../content/engine/index.js";
import type { References } from "../content/engine/references.js";
import type { ContentStorage } from "../content/storage.js";
import type { PageEntry } from "../content/trie.js";
import { type FileTable, presentFile } from "../files/index.js";
import type { Urls } from "../urls.js";

/** What a published page's links are resolved against: its revision, and where the site shows pages. */
export interface SiteLinkContext {
  references: References;
  storage: ContentStorage;
  /** The files the revision shows, by id: read only for a page that names a file. */
  files: () => Promise<ReadonlyMap<string, FileTable>>;
  urls: Urls;
  secretKey: string;
  /** The site URL of a page of the revision. */
  pageHref: (page: PageEntry) => string;
}

/** The places a `#fragment` can land on each of these pages, by page id. */
async function anchorsOf(
  storage: ContentStorage,
  pages: readonly PageEntry[],
): Promise<Map<string, Set<string>>> {
  const bodies = await storage.documents(pages.flatMap((page) => (page.document ? [page.document] : [])));
  const analyses = await contentEngine().analyzeAll(
    pages.map((page) => (page.document ? (bodies.get(page.document) ?? "") : "")),
    { refusedAsEmpty: true },
  );
  return new Map(pages.map((page, i) => [page.id, new Set(analyses[i]?.anchors ?? [])]));
}

/**
 * Where each link and image written on `page` (its `links`, as the engine read them) goes on the site:
 * another page at its site URL, its `#fragment` kept only when that page has the anchor; a file at its
 * download URL; what the revision does not have taken away (the text stays), so that a reader meets no
 * dead link. Other URLs stay as written.
 */
export async function siteLinks(
  context: SiteLinkContext,
  page: PageEntry,
  links: readonly string[],
): Promise<Record<string, string>> {
  const resolved = links.map((url) => ({ url, reference: context.references.resolve(page, url) }));
  const linked = resolved.flatMap(({ reference }) =>
    reference.kind === "page" && reference.fragment !== undefined ? [reference.page] : [],
  );
  const anchors = linked.length === 0 ? new Map() : await anchorsOf(context.storage, [...new Set(linked)]);
  const files = resolved.some(({ reference }) => reference.kind === "file")
    ? await context.files()
    : new Map();
  const rewrite: Record<string, string> = {};
  for (const { url, reference } of resolved) {
    switch (reference.kind) {
      case "page": {
        const { fragment } = reference;
        const lands = fragment !== undefined && anchors.get(reference.page.id)?.has(fragment);
        rewrite[url] =
          `${context.pageHref(reference.page)}${lands ? `#${encodeURIComponent(fragment)}` : ""}`;
        break;
      }
      case "file": {
        const file = files.get(reference.fileId);
        rewrite[url] = file ? presentFile(file, context.urls, context.secretKey).downloadURL : "";
        break;
      }
      case "missing-page":
        rewrite[url] = "";
        break;
      case "fragment":
      case "url":
        break;
    }
  }
  return rewrite;
}
