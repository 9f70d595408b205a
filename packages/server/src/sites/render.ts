import { createHash } from "node:crypto";
import type { Element, ElementContent, Root, RootContent } from "hast";
import { toHtml } from "hast-util-to-html";
import { h } from "hastscript";
import type { PageTree } from "../content/pages.js";
import type { PageEntry } from "../content/trie.js";
import type { SiteSpaceEntry } from "./structure.js";
import type { SiteSectionTable } from "./tables.js";

/** A link of the navigation: where it goes and whether it is where the visitor is. */
export interface NavigationLink {
  title: string;
  href: string;
  current: boolean;
}

/** Everything a published page shows; URLs are made by the caller, which knows the site's base. */
export interface PublishedPage {
  siteTitle: string;
  /** Search engines are asked to keep out of sites that are not public. */
  indexable: boolean;
  sections: NavigationLink[];
  siteSpaces: NavigationLink[];
  tree: PageTree;
  page: PageEntry;
  /** The page's description (its front matter's), for search engines and link previews. */
  description?: string;
  /** The page's absolute URL at the site's root, without a share key or visitor token. */
  canonicalUrl: string;
  /**
   * The page's body as the content engine rendered it (sanitized HTML), or why it could not: a body
   * past the server's limits is shown as that reason, under the site's navigation.
   */
  body: { html: string } | { refused: string };
  pageHref: (page: PageEntry) => string;
}

const STYLE = `body{margin:0;font:16px/1.6 system-ui,sans-serif;color:#1f2328}
header{padding:12px 24px;border-bottom:1px solid #d0d7de;display:flex;gap:24px;align-items:center}
header nav a,aside a{color:inherit;text-decoration:none}
[aria-current=page]{font-weight:600;color:#346DDB}
.layout{display:flex}aside{width:260px;padding:16px 24px;border-right:1px solid #d0d7de}
aside ul{list-style:none;padding-left:12px}main{padding:16px 32px;max-width:760px}
pre{background:#f6f8fa;padding:12px;overflow:auto}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 8px}
.hint{border-left:4px solid #346DDB;background:#f0f5ff;padding:4px 16px;margin:16px 0}
.hint-success{border-color:#1a7f37;background:#effaf2}.hint-warning{border-color:#bf8700;background:#fff8e5}
.hint-danger{border-color:#cf222e;background:#fff0f0}
.tab{border:1px solid #d0d7de;padding:0 16px;margin:8px 0}.tab-title,.code-title{font-weight:600}
.content-ref{display:block;border:1px solid #d0d7de;border-radius:6px;padding:12px 16px;text-decoration:none}`;

/**
 * The policy of every HTML answer of a published site. Pages run no scripts and submit no forms;
 * their one style sheet is the inline `STYLE`, allowed by its hash; images come from the page's
 * origin or any HTTPS host, as editors link them (the sanitizer has removed `data:` sources).
 * Nothing may frame them: they have no use inside another site's page, which could pass them off
 * as its own.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`,
  "img-src 'self' https:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

function link({ title, href, current }: NavigationLink): Element {
  return h("a", { href, ...(current && { "aria-current": "page" }) }, title);
}

function linkList(label: string, links: NavigationLink[]): Element | undefined {
  if (links.length < 2) return undefined;
  return h(
    "nav",
    { "aria-label": label },
    h(
      "ul",
      links.map((item) => h("li", link(item))),
    ),
  );
}

function pageList(view: PublishedPage, parent: string | null): Element | undefined {
  const children = view.tree.children(parent);
  if (children.length === 0) return undefined;
  return h(
    "ul",
    children.map((page) =>
      h("li", [
        link({ title: page.title, href: view.pageHref(page), current: page.id === view.page.id }),
        pageList(view, page.id),
      ]),
    ),
  );
}

/** What a page's `<head>` says of it beyond its title: its description, canonical URL and Open Graph tags. */
function pageMeta(view: PublishedPage): Element[] {
  const og = (property: string, content: string) => h("meta", { property: `og:${property}`, content });
  const { description } = view;
  return [
    ...(description ? [h("meta", { name: "description", content: description })] : []),
    h("link", { rel: "canonical", href: view.canonicalUrl }),
    og("type", "website"),
    og("site_name", view.siteTitle),
    og("title", view.page.title),
    ...(description ? [og("description", description)] : []),
    og("url", view.canonicalUrl),
  ];
}

function document(title: string, indexable: boolean, body: ElementContent[], meta: Element[] = []): string {
  const tree: Root = {
    type: "root",
    children: [
      { type: "doctype" },
      h("html", { lang: "en" }, [
        h("head", [
          h("meta", { charset: "utf-8" }),
          h("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
          indexable ? undefined : h("meta", { name: "robots", content: "noindex" }),
          h("title", title),
          ...meta,
          h("style", STYLE),
        ]),
        h("body", body),
      ]),
    ],
  };
  // The one raw node is the page body, which the content engine has sanitized.
  return toHtml(tree, { allowDangerousHtml: true });
}

function bodyOf(view: PublishedPage): RootContent {
  if ("refused" in view.body) return h("p", `This page cannot be shown: ${view.body.refused}`);
  return { type: "raw", value: view.body.html } as unknown as RootContent;
}

/** The HTML of a page of a published site, with the site's navigation. */
export function renderPublishedPage(view: PublishedPage): string {
  return document(
    `${view.page.title} | ${view.siteTitle}`,
    view.indexable,
    [
      h("header", [h("strong", view.siteTitle), linkList("Sections", view.sections)]),
      h("div", { class: "layout" }, [
        h("aside", [
          linkList("Variants", view.siteSpaces),
          h("nav", { "aria-label": "Pages" }, pageList(view, null)),
        ]),
        h("main", [h("h1", view.page.title), bodyOf(view) as ElementContent]),
      ]),
    ],
    pageMeta(view),
  );
}

/** A page that says why there is nothing to show (not found, sign-in needed, no content). */
export function renderMessage(title: string, message: string): string {
  return document(title, false, [h("main", [h("h1", title), h("p", message)])]);
}

/** Navigation entries of the sections shown to the visitor. */
export const sectionLinks = (
  sections: readonly SiteSectionTable[],
  current: SiteSectionTable | undefined,
  href: (section: SiteSectionTable) => string,
): NavigationLink[] =>
  sections.map((section) => ({
    title: section.title,
    href: href(section),
    current: section.id === current?.id,
  }));

/** Navigation entries of the site spaces of the visitor's container, named after their spaces. */
export const siteSpaceLinks = (
  entries: readonly SiteSpaceEntry[],
  current: SiteSpaceEntry,
  href: (entry: SiteSpaceEntry) => string,
): NavigationLink[] =>
  entries.map((entry) => ({
    title: entry.space.title,
    href: href(entry),
    current: entry.row.id === current.row.id,
  }));
