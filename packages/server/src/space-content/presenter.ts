import type { Schema } from "@quire/api-types";
import type { JSONDocument } from "../content/engine/index.js";
import { type PageMeta, pageLayout } from "../content/page-meta.js";
import type { PageTree } from "../content/pages.js";
import type { RevisionTable } from "../content/tables.js";
import type { PageEntry } from "../content/trie.js";
import type { RenderedPage } from "../sites/index.js";
import type { Urls } from "../urls.js";

/** Where content is seen in the application: a space's main content or one of its change requests. */
export interface ContentView {
  /** The application path the pages' paths hang from, e.g. `spaces/{id}`. */
  appPath: string;
  spaceId: string;
}

/** A page body as the contract types it: its open `data` records (`Record<unknown>`) generate as `Record<string, never>`. */
export const presentDocument = (document: JSONDocument) => document as Schema<"JSONDocument">;

/** The page metadata of the bodies of a tree's pages, by document (see `ContentStorage.pageMeta`). */
export type PagesMeta = ReadonlyMap<string, PageMeta>;

/** A document page's metadata from its front matter, and its layout (GitBook's defaults without one). */
function presentMeta(meta: PageMeta | undefined) {
  const { layout, icon, ...flags } = meta ?? {};
  return { ...flags, ...(icon !== undefined && icon !== "" && { icon }), layout: pageLayout(layout) };
}

/**
 * One page; with its child pages nested when `children`, and its body (Markdown or document) when
 * given. `meta` holds the metadata of its body and, with `children`, of theirs.
 */
export function presentPage(
  tree: PageTree,
  entry: PageEntry,
  view: ContentView,
  urls: Urls,
  options: { children: boolean; meta: PagesMeta; markdown?: string; document?: JSONDocument },
): Schema<"RevisionPage"> {
  const path = tree.path(entry);
  const { href } = entry;
  const document = entry.kind === undefined;
  return {
    id: entry.id,
    title: entry.title,
    type: entry.kind ?? "document",
    kind: entry.kind ?? "sheet",
    ...(document && { tags: [] }),
    ...(document && presentMeta(entry.document === null ? undefined : options.meta.get(entry.document))),
    ...(href !== undefined && { href }),
    ...(href !== undefined && URL.canParse(href) && { target: { kind: "url", url: href } }),
    slug: entry.slug,
    path,
    urls: { app: urls.app(`${view.appPath}/${path}`) },
    ...(entry.document !== null && { documentId: entry.document }),
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    ...(options.markdown !== undefined && { markdown: options.markdown }),
    ...(options.document !== undefined && { document: presentDocument(options.document) }),
    ...(options.children && { pages: presentPages(tree, entry.id, view, urls, options.meta) }),
  };
}

/** The pages under `parent` (null: the top level), each with its children nested, without bodies. */
export function presentPages(
  tree: PageTree,
  parent: string | null,
  view: ContentView,
  urls: Urls,
  meta: PagesMeta,
): Schema<"RevisionPage">[] {
  return tree.children(parent).map((entry) => presentPage(tree, entry, view, urls, { children: true, meta }));
}

export function presentRevision(
  revision: RevisionTable,
  tree: PageTree,
  view: ContentView,
  urls: Urls,
  files: Schema<"RevisionFile">[],
  meta: PagesMeta,
): Schema<"Revision"> {
  return {
    object: "revision",
    id: revision.id,
    parents: [revision.parent_id, revision.merge_parent_id].filter((id) => id !== null),
    pages: presentPages(tree, null, view, urls, meta),
    files,
    reusableContents: [],
    createdAt: revision.created_at,
    urls: { app: urls.app(`spaces/${view.spaceId}/revisions/${revision.id}`) },
    type: revision.type,
    tags: [],
  };
}

/**
 * A page as the sites render it, for the app: its HTML or why it is refused, its description, and its
 * headings (the part before the first heading, which has none, left out).
 */
export function presentRenderedPage({ body, description, headings }: RenderedPage): Schema<"RenderedPage"> {
  return {
    ...body,
    ...(description !== undefined && { description }),
    headings: headings
      .filter((section) => section.anchor !== "" && section.depth > 0)
      .map((section) => ({ id: section.anchor, title: section.heading, depth: section.depth })),
  };
}
