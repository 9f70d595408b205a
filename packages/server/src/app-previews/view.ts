import type { ElementContent } from "hast";
import { toHtml } from "hast-util-to-html";
import { h } from "hastscript";
import { pageLayout } from "../content/page-meta.js";
import { PageTree } from "../content/pages.js";
import type { PageEntry } from "../content/trie.js";
import { type PublishedPage, type RenderedPage, renderPublishedPage } from "../sites/index.js";

/** HTML the content engine made (sanitized), placed among the elements a preview builds. */
const sanitized = (html: string): ElementContent =>
  ({ type: "raw", value: html }) as unknown as ElementContent;

/** A page's body as `renderPage` made it: its HTML, or the reason the server's limits refuse it. */
export const pageBody = (body: RenderedPage["body"]): ElementContent =>
  "refused" in body ? h("p", `This cannot be shown: ${body.refused}`) : sanitized(body.html);

/** What a preview shows: where it belongs (its header), its title and content, and the pages around it. */
export interface PreviewView {
  /** The header's title and link: the space, organization… the preview is of or in. */
  siteTitle: string;
  homeHref: string;
  /** Where the header's search box asks. */
  searchHref: string;
  /** A page of `tree`, or the title of what is shown instead (a revision, an integration…). */
  subject: PageEntry | { title: string };
  /** Below the title; what is undefined is left out. */
  content: Array<ElementContent | undefined>;
  canonicalUrl: string;
  tree?: PageTree;
  pageHref?: (page: PageEntry) => string;
  headings?: PublishedPage["headings"];
}

const NO_PAGES = new PageTree([]);

/**
 * The preview in the published sites' look. What is not a page is shown in a page's place, under a
 * page entry of no tree: the sidebar marks none of the tree's pages, and the pager leads to its first.
 * The sites' style sheet and script are linked from `assetsHref`.
 */
export function renderPreview(view: PreviewView, assetsHref: string): string {
  const page: PageEntry =
    "id" in view.subject
      ? view.subject
      : {
          id: "",
          parent: null,
          order: "",
          title: view.subject.title,
          slug: "",
          document: null,
          createdAt: "",
          updatedAt: "",
        };
  return renderPublishedPage({
    siteTitle: view.siteTitle,
    indexable: false,
    sections: [],
    siteSpaces: [],
    tree: view.tree ?? NO_PAGES,
    homeHref: view.homeHref,
    assetsHref,
    searchHref: view.searchHref,
    pageHref: view.pageHref ?? (() => view.homeHref),
    page,
    headings: view.headings ?? [],
    // A preview is for its editors: it shows every part of a page, whatever its layout hides.
    layout: pageLayout(undefined),
    canonicalUrl: view.canonicalUrl,
    body: {
      html: toHtml(
        { type: "root", children: view.content.filter((node) => node !== undefined) },
        // The one raw node is a body the content engine has sanitized.
        { allowDangerousHtml: true },
      ),
    },
  });
}

/** A list of terms and their descriptions (a resource's key fields); those without a value left out. */
export function fields(entries: ReadonlyArray<[string, string | ElementContent | null | undefined]>) {
  return h(
    "dl",
    entries.flatMap(([term, value]) =>
      value === null || value === undefined || value === "" ? [] : [h("dt", term), h("dd", value)],
    ),
  );
}
