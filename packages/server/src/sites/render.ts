import { createHash } from "node:crypto";
import type { Element, ElementContent, Root } from "hast";
import { toHtml } from "hast-util-to-html";
import { h } from "hastscript";
import type { Section } from "../content/engine/index.js";
import type { PageLayout } from "../content/page-meta.js";
import type { PageTree } from "../content/pages.js";
import { plainTitle, titleAnchor } from "../content/titles.js";
import type { PageEntry } from "../content/trie.js";
import { SITE_SCRIPT, STYLESHEET } from "./assets.js";
import {
  announcement,
  type BrandContext,
  faviconLinks,
  footer,
  headerLinks,
  homeLink,
  httpUrl,
  logo,
  type ResolveLink,
  safeHref,
  translated,
} from "./customization/render.js";
import type { CustomizationSettings } from "./customization/settings.js";
import { markdownUrl } from "./discovery.js";
import { type SiteSpaceEntry, siteSpaceTitle } from "./structure.js";
import type { SiteSectionTable } from "./tables.js";

/** A link of the navigation: where it goes and whether it is where the visitor is. */
export interface NavigationLink {
  title: string;
  href: string;
  current: boolean;
}

/** A site's branding: its customization (with the site space's override) and its style (`brandStyle`). */
export interface Brand {
  settings: CustomizationSettings;
  /** Where the customization's links to content go, on the site. */
  resolve: ResolveLink;
  /** The site's own custom properties and modes, or "" for Quire's look. */
  style: string;
}

/** What every page of a site shows around its content: its header and navigation. */
export interface SiteChrome {
  /** The site's title as shown (its customization's when it sets one). */
  siteTitle: string;
  /** The site's branding; none on the app's previews. */
  brand?: Brand;
  /** Search engines are asked to keep out of sites that are not public. */
  indexable: boolean;
  /** The language of the visitor's site space (its space's), declared by the pages; English by default. */
  language?: string;
  sections: NavigationLink[];
  siteSpaces: NavigationLink[];
  tree: PageTree;
  /** The root of the visitor's site space: where the site's title and a not-found page lead. */
  homeHref: string;
  /** Where the site's assets are (`assets.ts`): the path of its root. */
  assetsHref: string;
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
  /** The page's description (its front matter's), under its title and for search engines and link previews. */
  description?: string;
  /** Which of the page's parts are shown (its front matter's layout). */
  layout: PageLayout;
  /**
   * The page's canonical URL: the one its meta links name, else its absolute URL at the site's root,
   * without a share key or visitor token.
   */
  canonicalUrl: string;
  /** Its other versions' URLs (its meta links' alternates). */
  alternateUrls?: readonly string[];
  /**
   * The page's body as the content engine rendered it (sanitized HTML), or why it could not: a body
   * past the server's limits is shown as that reason, under the site's navigation.
   */
  body: { html: string } | { refused: string };
}

/**
 * The policy of every HTML answer of a published site. Their style sheet and script are the site's
 * assets, from its own origin, as is what the script fetches (the search page), and where their one
 * form, the search box, goes (the sanitizer lets no script, style or form into a body); images come
 * from the page's origin or any HTTPS host, as editors link them, and `data:` for the emoji favicon
 * the site's customization draws (the sanitizer has removed `data:` sources from bodies). Nothing
 * may frame them: they have no use inside another site's page, which could pass them off as its own.
 */
export const contentSecurityPolicy = (brandStyle = "") =>
  [
    "default-src 'none'",
    // The site's brand style is inline, one per site: allowed by its digest.
    brandStyle
      ? `style-src 'self' 'sha256-${createHash("sha256").update(brandStyle).digest("base64")}'`
      : "style-src 'self'",
    "script-src 'self'",
    "connect-src 'self'",
    "img-src 'self' https: data:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");

/** The policy of a page without branding. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** What the site's branding draws with, for the visitor's language; none without branding. */
const brandOf = (chrome: SiteChrome): BrandContext | undefined =>
  chrome.brand && { ...chrome.brand, language: chrome.language };

/** The site's title as shown: translated into the visitor's language when the settings say so. */
const titleOf = (chrome: SiteChrome) =>
  translated(chrome.siteTitle, chrome.brand?.settings.localizedTitle, chrome.language);

/**
 * A title as shown: its code spans (`` `Content-Type` Parser ``, as a page's title read from a heading
 * of that Markdown has them) as code, not as backticks.
 */
function titleContent(title: string): ElementContent[] {
  return title
    .split(/(`[^`]+`)/)
    .flatMap((part): ElementContent[] =>
      part === ""
        ? []
        : /^`.+`$/s.test(part)
          ? [h("code", part.slice(1, -1))]
          : [{ type: "text", value: part }],
    );
}

function link({ title, href, current }: NavigationLink): Element {
  return h("a", { href, ...(current && { "aria-current": "page" }) }, titleContent(title));
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
 * A link page's entry: its title, linking where it leads when its href is safe to follow (relative,
 * http(s), mailto; to a page of the space, that page); a link to another site gives it no hold on this
 * page (`noopener`).
 */
function linkPageEntry(chrome: SiteChrome, page: PageEntry): Element {
  if (safeHref(page.href) === undefined) return h("span", titleContent(page.title));
  const href = chrome.pageHref(page);
  return h("a", { href, ...(URL.canParse(href) && { rel: "noopener" }) }, titleContent(page.title));
}

/**
 * The pages under `parent`; a page with pages under it is a `<details>` group, open when the
 * current page is in it or is it (so the current page and its subpages show), collapsible without
 * a script. A group page is a section heading over its pages, always shown; a link page links to
 * where it leads.
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
      if (page.kind === "link") return h("li", linkPageEntry(chrome, page));
      if (page.kind === "group")
        return h("li", { class: "nav-group" }, [
          h("span", { class: "nav-group-title" }, titleContent(page.title)),
          pageList(chrome, page.id, open, current),
        ]);
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
          h("summary", h("span", { class: "visually-hidden" }, `Pages under ${plainTitle(page.title)}`)),
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
  layout?: Pick<PageLayout, "tableOfContents" | "width">,
): ElementContent[] {
  const open = new Set(current ? [...ancestorsOf(chrome.tree, current), current].map((page) => page.id) : []);
  const brand = brandOf(chrome);
  const title = titleOf(chrome);
  return [
    h("a", { class: "skip", href: "#quire-content" }, "Skip to content"),
    brand && announcement(brand),
    h("header", [
      h("input", { type: "checkbox", id: "quire-menu", class: "toggle" }),
      h("label", { for: "quire-menu", class: "button" }, "Menu"),
      (brand && logo(brand, chrome.homeHref, title)) ??
        h("a", { class: "home", ...homeLink(brand, chrome.homeHref) }, title),
      linkList("Sections", chrome.sections, "tabs"),
      brand && headerLinks(brand),
      searchForm(chrome),
      h("input", { type: "checkbox", id: "quire-theme", class: "toggle" }),
      h("label", { for: "quire-theme", class: "button theme" }, "Switch theme"),
    ]),
    h("div", { class: layout?.tableOfContents === false ? "layout no-pages" : "layout" }, [
      layout?.tableOfContents === false
        ? undefined
        : h("aside", [
            linkList("Variants", chrome.siteSpaces),
            h("nav", { "aria-label": "Pages" }, pageList(chrome, null, open, current)),
          ]),
      h("div", { class: layout?.width === "wide" ? "column wide" : "column" }, content),
      toc,
    ]),
    brand && footer(brand),
  ].filter((element) => element !== undefined);
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
  return document(`Search | ${titleOf(chrome)}`, false, chrome.assetsHref, siteBody(chrome, [main]), {
    brand: chrome.brand,
    ...(chrome.language && { language: chrome.language }),
  });
}

/** A page's contents: its h2 and h3 headings, linking to their anchors; none when it has none. */
function tableOfContents(view: PublishedPage): Element | undefined {
  if (!view.layout.outline) return undefined;
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
      // A group is no page to go to: its title only.
      ancestors.map((page) =>
        h(
          "li",
          page.kind === "group"
            ? titleContent(page.title)
            : h("a", { href: view.pageHref(page) }, titleContent(page.title)),
        ),
      ),
    ),
  );
}

/**
 * Links to the documents before and after this one in the tree's order (each page, then its
 * children): groups and links are no pages to read. None when the customization turns pagination off.
 */
function pager(view: PublishedPage): Element | undefined {
  if (view.brand?.settings.pagination.enabled === false || !view.layout.pagination) return undefined;
  const ordered = view.tree.inOrder().filter((page) => page.kind === undefined);
  const index = ordered.findIndex((page) => page.id === view.page.id);
  const neighbour = (page: PageEntry | undefined, rel: "prev" | "next", label: string) =>
    page &&
    h("a", { class: rel, rel, href: view.pageHref(page) }, [h("span", label), ...titleContent(page.title)]);
  const links = [
    neighbour(index > 0 ? ordered[index - 1] : undefined, "prev", "Previous"),
    neighbour(ordered[index + 1], "next", "Next"),
  ].filter((element) => element !== undefined);
  return links.length === 0
    ? undefined
    : h("nav", { class: "pager", "aria-label": "Previous and next pages" }, links);
}

/**
 * What a page's `<head>` says of it beyond its title: its description, canonical URL and Open Graph
 * tags, with the customization's image of link previews (an absolute http(s) URL).
 */
function pageMeta(view: PublishedPage): Element[] {
  const og = (property: string, content: string) => h("meta", { property: `og:${property}`, content });
  const { description } = view;
  const previewUrl = view.brand?.settings.socialPreview.url;
  const image = previewUrl === undefined ? undefined : httpUrl(previewUrl);
  return [
    ...(description ? [h("meta", { name: "description", content: description })] : []),
    h("link", { rel: "canonical", href: view.canonicalUrl }),
    ...(view.alternateUrls ?? []).map((href) => h("link", { rel: "alternate", href })),
    og("type", "website"),
    og("site_name", titleOf(view)),
    og("title", plainTitle(view.page.title)),
    ...(description ? [og("description", description)] : []),
    og("url", view.canonicalUrl),
    ...(image
      ? [
          og("image", image),
          h("meta", { name: "twitter:card", content: "summary_large_image" }),
          h("meta", { name: "twitter:image", content: image }),
        ]
      : []),
  ];
}

/**
 * A whole HTML page; `assetsHref` is where the site's style sheet and script are (see `SiteChrome`),
 * and `brand` what the site's customization adds to its head (favicons, its style).
 */
function document(
  title: string,
  indexable: boolean,
  assetsHref: string,
  body: ElementContent[],
  {
    meta = [],
    brand,
    language = "en",
  }: { meta?: Element[]; brand?: Brand | undefined; language?: string } = {},
): string {
  const tree: Root = {
    type: "root",
    children: [
      { type: "doctype" },
      h("html", { lang: language }, [
        h("head", [
          h("meta", { charset: "utf-8" }),
          h("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
          indexable ? undefined : h("meta", { name: "robots", content: "noindex" }),
          h("title", title),
          ...meta,
          h("link", { rel: "stylesheet", href: `${assetsHref}${STYLESHEET.name}` }),
          ...(brand ? faviconLinks(brand.settings) : []),
          brand?.style ? h("style", brand.style) : undefined,
          h("script", { src: `${assetsHref}${SITE_SCRIPT.name}`, defer: true }),
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

/**
 * The page actions the customization offers (the one the site has: the page's Markdown), once it is
 * set: a site never customized keeps Quire's own look (as `brandStyle`).
 */
function pageActions(view: PublishedPage): Element | undefined {
  const settings = view.brand?.settings;
  if (settings?.updatedAt === undefined || !settings.pageActions.items.includes("markdown")) return undefined;
  const markdown = new URL(markdownUrl(new URL(view.pageHref(view.page), "http://site.invalid").href));
  return h(
    "p",
    { class: "page-actions" },
    h("a", { href: `${markdown.pathname}${markdown.search}`, type: "text/markdown" }, "View as Markdown"),
  );
}

/** The HTML of a page of a published site, with the site's navigation. */
export function renderPublishedPage(view: PublishedPage): string {
  // Breadcrumbs and pager stay out of `<main>`, which holds the page itself.
  const { layout, description } = view;
  // Links to the heading a page's title was read from land on the title, unless a heading of its body has the anchor.
  const anchor = titleAnchor(view.page.title);
  const titleId = view.headings.some((heading) => heading.anchor === anchor) ? {} : { id: anchor };
  const main = h("main", [
    // A hidden title is still the page's heading for screen readers.
    h(
      "h1",
      { ...titleId, ...(!layout.title && { class: "visually-hidden" }) },
      titleContent(view.page.title),
    ),
    layout.description && description ? h("p", { class: "description" }, description) : undefined,
    pageActions(view),
    h("div", { id: "quire-content" }, bodyOf(view)),
  ]);
  return document(
    `${plainTitle(view.page.title)} | ${titleOf(view)}`,
    view.indexable,
    view.assetsHref,
    siteBody(view, [breadcrumbs(view), main, pager(view)], view.page, tableOfContents(view), layout),
    { meta: pageMeta(view), brand: view.brand, ...(view.language && { language: view.language }) },
  );
}

/** The answer to a path of a site that names no page: the site's navigation, and a way home. */
export function renderSiteNotFound(chrome: SiteChrome): string {
  const main = h("main", { id: "quire-content" }, [
    h("h1", "Page not found"),
    h("p", ["There is no page here. ", h("a", { href: chrome.homeHref }, `Back to ${titleOf(chrome)}`)]),
  ]);
  return document(`Page not found | ${titleOf(chrome)}`, false, chrome.assetsHref, siteBody(chrome, [main]), {
    brand: chrome.brand,
    ...(chrome.language && { language: chrome.language }),
  });
}

/** A page that says why there is nothing to show (not found, sign-in needed, no content). */
export function renderMessage(title: string, message: string, assetsHref: string): string {
  return document(title, false, assetsHref, [h("main", [h("h1", title), h("p", message)])]);
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
    title: siteSpaceTitle(entry),
    href: href(entry),
    current: entry.row.id === current.row.id,
  }));
