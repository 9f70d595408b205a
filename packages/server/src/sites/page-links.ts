import { contentEngine, type FrontMatter, type Section } from "../content/engine/index.js";
import { References, referencedFile } from "../content/engine/references.js";
import { type PageLayout, pageLayout } from "../content/page-meta.js";
import type { PageTree } from "../content/pages.js";
import type { ContentStorage } from "../content/storage.js";
import type { RevisionTable } from "../content/tables.js";
import { titleAnchor } from "../content/titles.js";
import type { PageEntry } from "../content/trie.js";
import { type FileTable, presentFile, publicBase, revisionFiles } from "../files/index.js";
import { ApiError } from "../http/errors.js";
import type { Services } from "../services.js";
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
  // The title, whose heading (`# Title`) became it, is where its anchor lands.
  return new Map(
    pages.map((page, i) => [page.id, new Set([titleAnchor(page.title), ...(analyses[i]?.anchors ?? [])])]),
  );
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
        const file = referencedFile(files, reference);
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

/**
 * What a page's links are resolved against in `revision` of its space, whose pages are at
 * `pageHref`: its tree and its pages' files in its Git repository (`pageFiles`, see `References`), and
 * its files as they stood then, read only if a page names one.
 */
export function siteLinkContext(
  { db, urls, secretKey }: Pick<Services, "db" | "urls" | "secretKey">,
  {
    storage,
    revision,
    tree,
    pageFiles,
  }: {
    storage: ContentStorage;
    revision: RevisionTable;
    tree: PageTree;
    pageFiles: ReadonlyMap<string, string>;
  },
  pageHref: (page: PageEntry) => string,
): SiteLinkContext {
  const scope = { spaceId: revision.space_id, changeRequestId: null };
  const files = async () =>
    new Map((await revisionFiles(db, scope, revision.created_at)).map((file) => [file.id, file]));
  const references = new References(tree, publicBase(urls), pageFiles);
  return { references, storage, files, urls, secretKey, pageHref };
}

/** A page as the sites show it: its body's HTML, or why the server's limits refuse it; its description and headings. */
export interface RenderedPage {
  body: { html: string } | { refused: string };
  description?: string;
  headings: Section[];
  /** Its front matter asks search engines not to index it. */
  noRobotsIndex?: true;
  /** Its front matter's meta links. */
  metaLinks?: Pick<FrontMatter, "canonical" | "alternates">;
  /** Which of its parts it shows (its front matter's layout, GitBook's defaults without). */
  layout: PageLayout;
}

/** Renders `page` (its body `markdown`) with its links resolved in `context` (see `siteLinks`). */
export async function renderPage(
  context: SiteLinkContext,
  page: PageEntry,
  markdown: string,
): Promise<RenderedPage> {
  const engine = contentEngine();
  return unlessRefused<RenderedPage>(
    async () => {
      const { links, frontMatter, sections } = await engine.analyze(markdown);
      const html = await engine.renderHtml(markdown, await siteLinks(context, page, links));
      const { canonical, alternates } = frontMatter ?? {};
      return {
        body: { html },
        ...(frontMatter?.description && { description: frontMatter.description }),
        headings: sections,
        layout: pageLayout(frontMatter?.layout),
        ...(frontMatter?.noRobotsIndex && { noRobotsIndex: true }),
        ...((canonical || alternates) && {
          metaLinks: { ...(canonical && { canonical }), ...(alternates && { alternates }) },
        }),
      };
    },
    (error) => ({ body: { refused: error.message }, headings: [], layout: pageLayout(undefined) }),
  );
}

/**
 * `page`'s body (`markdown`) as its site serves it as Markdown: its links and images where the site's
 * lead (see `siteLinks`), what the revision does not have left as written, its text otherwise as stored.
 */
export async function pageMarkdown(
  context: SiteLinkContext,
  page: PageEntry,
  markdown: string,
): Promise<string> {
  const engine = contentEngine();
  // A body past the server's limits is served as stored, as it was before.
  return unlessRefused(
    async () => {
      const rewrite = await siteLinks(context, page, (await engine.analyze(markdown)).links);
      const found = Object.fromEntries(Object.entries(rewrite).filter(([, to]) => to !== ""));
      return engine.markdownWithUrls(markdown, found);
    },
    () => markdown,
  );
}

/** What `work` gives, or `refused`'s when the content engine refuses the body (past its limits: 422). */
async function unlessRefused<T>(work: () => Promise<T>, refused: (error: ApiError) => T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) return refused(error);
    throw error;
  }
}
