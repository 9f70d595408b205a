import { createHash } from "node:crypto";
import type { Element, ElementContent, Root } from "hast";
import { toHtml } from "hast-util-to-html";
import { h } from "hastscript";
import { HIGHLIGHT_STYLE } from "../content/engine/highlight-style.js";
import type { Section } from "../content/engine/index.js";
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

/** What every page of a site shows around its content: its header and navigation. */
export interface SiteChrome {
  siteTitle: string;
  /** Search engines are asked to keep out of sites that are not public. */
  indexable: boolean;
  sections: NavigationLink[];
  siteSpaces: NavigationLink[];
  tree: PageTree;
  /** The root of the visitor's site space: where the site's title and a not-found page lead. */
  homeHref: string;
  /** The site's search page, with the visitor's share key when they have one. */
  searchHref: string;
  /** The words searched, on the search page: the search box shows them. */
  query?: string;
  pageHref: (page: PageEntry) => string;
}

/** Everything a published page shows; URLs are made by the caller, which knows the site's base. */
export interface PublishedPage extends SiteChrome {
  page: PageEntry;
  /** The page's headings (the content engine's sections, anchors as the body's ids), for its contents. */
  headings: readonly Pick<Section, "anchor" | "heading" | "depth">[];
  /** The page's description (its front matter's), for search engines and link previews. */
  description?: string;
  /** The page's absolute URL at the site's root, without a share key or visitor token. */
  canonicalUrl: string;
  /**
   * The page's body as the content engine rendered it (sanitized HTML), or why it could not: a body
   * past the server's limits is shown as that reason, under the site's navigation.
   */
  body: { html: string } | { refused: string };
}

// Colours are `light-dark()` pairs: the `color-scheme` of the root picks one, following the reader's
// system unless the theme checkbox (`#quire-theme`) turns it around, which needs no script.
// Tables and code scroll inside themselves (never the page); the grid's `minmax(0, 1fr)` lets the
// text column shrink below its widest table rather than push the sidebar off-screen.
const STYLE = `:root{color-scheme:light dark;--fg:light-dark(#1f2328,#e6edf3);--bg:light-dark(#fff,#0d1117);--muted:light-dark(#59636e,#9198a1);--line:light-dark(#d0d7de,#3d444d);--soft:light-dark(#f6f8fa,#161b22);--accent:light-dark(#1f5fc8,#79b0ff)}
:root:has(#quire-theme:checked){color-scheme:dark}
@media (prefers-color-scheme:dark){:root:has(#quire-theme:checked){color-scheme:light}}
body{margin:0;font:16px/1.6 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}h1,h2,h3,h4,h5,h6{line-height:1.25;margin:1.5em 0 .5em}
h1{font-size:2em;margin-top:.5em}h2{font-size:1.5em}h3{font-size:1.25em}h4{font-size:1.125em}h5{font-size:1.0625em}h6{font-size:1em}
:target{scroll-margin-top:16px}main :is(h2,h3,h4,h5,h6):target{background:var(--soft)}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;z-index:2;background:var(--bg);padding:4px 8px}
header{padding:8px 24px;border-bottom:1px solid var(--line);display:flex;flex-wrap:wrap;gap:8px 24px;align-items:center}
header .home{font-weight:700;color:inherit;text-decoration:none}
.toggle{position:absolute;opacity:0;width:1px;height:1px;margin:0}
.button{border:1px solid var(--line);border-radius:6px;padding:2px 10px;cursor:pointer;font-size:.875em}
.toggle:focus-visible+.button{outline:2px solid var(--accent);outline-offset:2px}
#quire-menu,#quire-menu+.button{display:none}.theme{margin-left:auto}
header nav a,aside a,.toc a{color:inherit;text-decoration:none}
[aria-current=page]{font-weight:600;color:var(--accent)}
.tabs{min-width:0;max-width:100%}.tabs ul{display:flex;gap:4px;margin:0;padding:0;list-style:none;overflow-x:auto}
.tabs a{display:block;padding:6px 12px;border-bottom:2px solid transparent}.tabs a[aria-current=page]{border-color:var(--accent)}
.layout{display:grid;grid-template-columns:260px minmax(0,1fr) 220px;align-items:start}
aside,.toc{position:sticky;top:0;max-height:100vh;overflow-y:auto;box-sizing:border-box;padding:16px 20px}
aside,.column,.toc{grid-row:1}aside{border-right:1px solid var(--line)}.toc{grid-column:3;font-size:.875em}
aside ul,.toc ul{list-style:none;margin:0;padding-left:12px}aside li,.toc li{margin:4px 0}
.group{position:relative;padding-right:24px}.group>details>summary{position:absolute;top:0;right:0;cursor:pointer}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.toc h2{font-size:.875em;margin:0 0 8px;color:var(--muted)}.toc .depth-3{padding-left:12px}
.column{grid-column:2;padding:16px 32px 48px;max-width:760px;min-width:0;overflow-wrap:break-word}
.breadcrumbs ol{display:flex;flex-wrap:wrap;list-style:none;margin:0;padding:0;font-size:.875em;color:var(--muted)}
.breadcrumbs li+li::before{content:"/";padding:0 6px}.breadcrumbs a{color:inherit}
.pager{display:flex;justify-content:space-between;gap:16px;margin-top:48px;border-top:1px solid var(--line);padding-top:16px}
.pager a{display:block;border:1px solid var(--line);border-radius:6px;padding:8px 16px;text-decoration:none}
.pager .next{margin-left:auto;text-align:right}.pager span{display:block;font-size:.75em;color:var(--muted)}
img{max-width:100%;height:auto}
pre{background:var(--soft);padding:12px;overflow-x:auto}main table{display:block;max-width:100%;overflow-x:auto;border-collapse:collapse}
td,th{border:1px solid var(--line);padding:4px 8px}
.hint{border-left:4px solid var(--accent);background:light-dark(#f0f5ff,#121d33);padding:4px 16px;margin:16px 0}
.hint-success{border-color:#1a7f37;background:light-dark(#effaf2,#10261a)}.hint-warning{border-color:#bf8700;background:light-dark(#fff8e5,#2b2111)}
.hint-danger{border-color:#cf222e;background:light-dark(#fff0f0,#2d1215)}
.tab{border:1px solid var(--line);padding:0 16px;margin:8px 0}.tab-title,.code-title{font-weight:600}
.content-ref{display:block;border:1px solid var(--line);border-radius:6px;padding:12px 16px;text-decoration:none}
@media (max-width:1100px){.layout{grid-template-columns:260px minmax(0,1fr)}.toc{position:static;grid-column:2;max-height:none;padding:16px 32px 0}aside{grid-row:1/span 2}.column{grid-row:2}}
@media (max-width:768px){.layout{display:flex;flex-direction:column;align-items:stretch}aside{order:-2}.toc{order:-1}#quire-menu,#quire-menu+.button{display:inline-block}
aside{display:none;position:static;max-height:none;border-right:0;border-bottom:1px solid var(--line)}
:root:has(#quire-menu:checked) aside{display:block}header{padding:8px 16px}.column,.toc{padding:16px}}
.search{display:flex;gap:4px}.search input{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg);min-width:0}
.search button{font:inherit;padding:4px 10px;border:1px solid var(--line);border-radius:6px;background:var(--soft);color:var(--fg);cursor:pointer}
.search-results{padding-left:20px}.search-results li{margin:12px 0}.search-results p{margin:4px 0;color:var(--muted)}mark{background:light-dark(#fff8c5,#5a4a00);color:inherit}
.permalink{margin-left:.4em;color:var(--muted);text-decoration:none;opacity:0}:is(h2,h3,h4,h5,h6):hover .permalink,.permalink:focus{opacity:1}
${HIGHLIGHT_STYLE}`;

/**
 * The policy of every HTML answer of a published site. Pages run no scripts, and their one form,
 * the search box, asks the site's own origin (the sanitizer lets no form into a body); their one style sheet is the inline `STYLE`, allowed by its hash; images come from the page's
 * origin or any HTTPS host, as editors link them (the sanitizer has removed `data:` sources).
 * Nothing may frame them: they have no use inside another site's page, which could pass them off
 * as its own.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`,
  "img-src 'self' https:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

function link({ title, href, current }: NavigationLink): Element {
  return h("a", { href, ...(current && { "aria-current": "page" }) }, title);
}

function linkList(label: string, links: NavigationLink[], className?: string): Element | undefined {
  if (links.length < 2) return undefined;
  return h(
    "nav",
    { "aria-label": label, class: className },
    h(
      "ul",
      links.map((item) => h("li", link(item))),
    ),
  );
}

/** The pages from the top level down to `page`'s parent. */
function ancestorsOf(tree: PageTree, page: PageEntry): PageEntry[] {
  const ancestors: PageEntry[] = [];
  for (let up = page.parent && tree.get(page.parent); up; up = up.parent && tree.get(up.parent))
    ancestors.unshift(up);
  return ancestors;
}

/**
 * The pages under `parent`; a page with pages under it is a `<details>` group, open when the
 * current page is in it or is it (so the current page and its subpages show), collapsible without
 * a script.
 */
function pageList(
  chrome: SiteChrome,
  parent: string | null,
  open: ReadonlySet<string>,
  current?: PageEntry,
): Element | undefined {
  const children = chrome.tree.children(parent);
  if (children.length === 0) return undefined;
  return h(
    "ul",
    children.map((page) => {
      const entry = link({
        title: page.title,
        href: chrome.pageHref(page),
        current: page.id === current?.id,
      });
      const nested = pageList(chrome, page.id, open, current);
      if (!nested) return h("li", entry);
      // The link stays out of the summary, which must hold nothing interactive: the summary is the
      // group's toggle, drawn beside the link.
      return h("li", { class: "group" }, [
        entry,
        h("details", { open: open.has(page.id) }, [
          h("summary", h("span", { class: "visually-hidden" }, `Pages under ${page.title}`)),
          nested,
        ]),
      ]);
    }),
  );
}

/**
 * The site's header and navigation around a column of `content` (the `<main>` and the page's own
 * navigation), and the page's contents when it has any.
 */
function siteBody(
  chrome: SiteChrome,
  content: Array<Element | undefined>,
  current?: PageEntry,
  toc?: Element,
): ElementContent[] {
  const open = new Set(current ? [...ancestorsOf(chrome.tree, current), current].map((page) => page.id) : []);
  return [
    h("a", { class: "skip", href: "#quire-content" }, "Skip to content"),
    h("header", [
      h("input", { type: "checkbox", id: "quire-menu", class: "toggle" }),
      h("label", { for: "quire-menu", class: "button" }, "Menu"),
      h("a", { class: "home", href: chrome.homeHref }, chrome.siteTitle),
      linkList("Sections", chrome.sections, "tabs"),
      searchForm(chrome),
      h("input", { type: "checkbox", id: "quire-theme", class: "toggle" }),
      h("label", { for: "quire-theme", class: "button theme" }, "Switch theme"),
    ]),
    h("div", { class: "layout" }, [
      h("aside", [
        linkList("Variants", chrome.siteSpaces),
        h("nav", { "aria-label": "Pages" }, pageList(chrome, null, open, current)),
      ]),
      h("div", { class: "column" }, content),
      toc,
    ]),
  ];
}

/**
 * The search box: a form that asks the search page, no script needed. A GET form replaces its
 * action's query, so what that query holds (a share key) goes as hidden fields.
 */
function searchForm(chrome: SiteChrome): Element {
  const action = new URL(chrome.searchHref, "http://site.invalid");
  return h("form", { role: "search", class: "search", action: action.pathname, method: "get" }, [
    ...[...action.searchParams].map(([name, value]) => h("input", { type: "hidden", name, value })),
    h("input", {
      type: "search",
      name: "q",
      "aria-label": "Search this site",
      placeholder: "Search",
      ...(chrome.query !== undefined && { value: chrome.query }),
    }),
    h("button", { type: "submit" }, "Search"),
  ]);
}

/** The site's search page: what was searched, and the results (see `searchResultsContent`). */
export function renderSearchPage(chrome: SiteChrome, results: ElementContent[]): string {
  const main = h("main", { id: "quire-content" }, [h("h1", "Search"), ...results]);
  return document(`Search | ${chrome.siteTitle}`, false, siteBody(chrome, [main]));
}

/** A page's contents: its h2 and h3 headings, linking to their anchors; none when it has none. */
function tableOfContents(view: PublishedPage): Element | undefined {
  const listed = view.headings.filter(({ anchor, depth }) => anchor && (depth === 2 || depth === 3));
  if (listed.length === 0) return undefined;
  return h("nav", { class: "toc", "aria-label": "On this page" }, [
    h("h2", "On this page"),
    h(
      "ul",
      listed.map(({ anchor, heading, depth }) =>
        h("li", { class: `depth-${depth}` }, h("a", { href: `#${anchor}` }, heading)),
      ),
    ),
  ]);
}

function breadcrumbs(view: PublishedPage): Element | undefined {
  const ancestors = ancestorsOf(view.tree, view.page);
  if (ancestors.length === 0) return undefined;
  return h(
    "nav",
    { class: "breadcrumbs", "aria-label": "Breadcrumbs" },
    h(
      "ol",
      ancestors.map((page) => h("li", h("a", { href: view.pageHref(page) }, page.title))),
    ),
  );
}

/** Links to the pages before and after this one in the tree's order (each page, then its children). */
function pager(view: PublishedPage): Element | undefined {
  const ordered = view.tree.inOrder();
  const index = ordered.findIndex((page) => page.id === view.page.id);
  const neighbour = (page: PageEntry | undefined, rel: "prev" | "next", label: string) =>
    page && h("a", { class: rel, rel, href: view.pageHref(page) }, [h("span", label), page.title]);
  const links = [
    neighbour(index > 0 ? ordered[index - 1] : undefined, "prev", "Previous"),
    neighbour(ordered[index + 1], "next", "Next"),
  ].filter((element) => element !== undefined);
  return links.length === 0
    ? undefined
    : h("nav", { class: "pager", "aria-label": "Previous and next pages" }, links);
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

function bodyOf(view: PublishedPage): ElementContent {
  if ("refused" in view.body) return h("p", `This page cannot be shown: ${view.body.refused}`);
  return { type: "raw", value: view.body.html } as unknown as ElementContent;
}

/** The HTML of a page of a published site, with the site's navigation. */
export function renderPublishedPage(view: PublishedPage): string {
  // Breadcrumbs and pager stay out of `<main>`, which holds the page itself.
  const main = h("main", [h("h1", view.page.title), h("div", { id: "quire-content" }, bodyOf(view))]);
  return document(
    `${view.page.title} | ${view.siteTitle}`,
    view.indexable,
    siteBody(view, [breadcrumbs(view), main, pager(view)], view.page, tableOfContents(view)),
    pageMeta(view),
  );
}

/** The answer to a path of a site that names no page: the site's navigation, and a way home. */
export function renderSiteNotFound(chrome: SiteChrome): string {
  const main = h("main", { id: "quire-content" }, [
    h("h1", "Page not found"),
    h("p", ["There is no page here. ", h("a", { href: chrome.homeHref }, `Back to ${chrome.siteTitle}`)]),
  ]);
  return document(`Page not found | ${chrome.siteTitle}`, false, siteBody(chrome, [main]));
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
