import type { IncomingMessage } from "node:http";
import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import type { Request, Response, Router } from "express";
import { errors as joseErrors, jwtVerify } from "jose";
import type { KeptAnswers } from "../area.js";
import type { MetaLinkTarget } from "../content/engine/index.js";
import { linkedFile } from "../content/engine/references.js";
import type { PageTree } from "../content/pages.js";
import { RecentlyUsed } from "../content/recently-used.js";
import type { ContentStorage } from "../content/storage.js";
import type { PageEntry } from "../content/trie.js";
import { fromJson, isSet } from "../db/codecs.js";
import { pagePaths, redirectedPage } from "../git-sync/index.js";
import { searchContent, termsOf } from "../search/index.js";
import type { Services } from "../services.js";
import { claimsProblem } from "./adaptive-schema.js";
import { type Asset, assetNamed, sendAsset } from "./assets.js";
import type { Claims } from "./conditions.js";
import { brandStyle, type ResolveLink, safeHref, siteTitleOf } from "./customization/render.js";
import type { CustomizationSettings } from "./customization/settings.js";
import { customizationOf } from "./customization/store.js";
import {
  type DiscoveryFile,
  isDiscoveryFile,
  type ListedGroup,
  type ListedPage,
  LLMS_FULL_MAX_BYTES,
  llmsFullText,
  llmsText,
  MARKDOWN_SUFFIX,
  markdownUrl,
  robotsText,
  sitemapXml,
} from "./discovery.js";
import { acceptedEncodings, fingerprintOf, type PageCache, pageCacheOf, sendPage } from "./page-cache.js";
import { pageMarkdown, renderPage, siteLinkContext } from "./page-links.js";
import { mainContent, pageSegments, sectionOf, siteSpaceSegments } from "./page-paths.js";
import { publishedStructure } from "./published.js";
import { redirectVisitor } from "./redirects/resolve.js";
import {
  CONTENT_SECURITY_POLICY,
  contentSecurityPolicy,
  renderMessage,
  renderPublishedPage,
  renderSearchPage,
  renderSiteNotFound,
  type SiteChrome,
  sectionLinks,
  siteSpaceLinks,
} from "./render.js";
import { type SiteSearchHit, searchedSpaceIds, searchResultsContent } from "./search.js";
import { activeShareLink, findSite, type SiteRow, siteAtHost } from "./store.js";
import { loadSiteStructure, type SiteSpaceEntry, type SiteStructure, siteSpaceTitle } from "./structure.js";
import type { SiteSectionTable } from "./tables.js";
import { PUBLISHED_PREFIX, publishedRoot, SHARE_KEY_PARAMETER, sectionUrlPath, urlsUnder } from "./urls.js";
import { openVisitorAuthKey } from "./visitor-auth.js";

/** What every answer of a published site says of itself. */
const PAGE_HEADERS = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
};

/** GitBook's name for the visitor token in a site's URL; it is then kept in a cookie for the next pages. */
export const VISITOR_TOKEN_PARAMETER = "jwt_token";
const VISITOR_TOKEN_COOKIE = "quire_visitor";
/**
 * The longest the cookie keeps a visitor's token, in seconds, however late the token expires: a day,
 * so that a long-lived token left in a browser is asked for again, as the site's sign-in service
 * would then decide afresh.
 */
const VISITOR_COOKIE_MAX_AGE = 24 * 60 * 60;

/** What a path under a site's root asks for: a page, as HTML or Markdown, or a file of `discovery.ts`. */
type Asked =
  | { kind: "page" | "markdown"; segments: string[] }
  | { kind: "search" }
  | { kind: "asset"; asset: Asset }
  | { [File in DiscoveryFile]: { kind: File } }[DiscoveryFile];

/**
 * The path of a site's search page, under its root: it comes before a section or site space of that
 * path, whose pages stay reachable under it.
 */
const SEARCH_PAGE = "search";
/** Where the links of a space's outline are written from, in its repository (see Git Sync). */
const SUMMARY_FILE = "SUMMARY.md";
/** The longest query the search page reads (as the search API), and how many spaces it shows. */
const SEARCH_QUERY_MAX = 512;
const SEARCH_SPACES_SHOWN = 10;

/** Where a site is served from (its root URL, ending in `/`) and what the path under it asks for. */
interface Mount {
  root: URL;
  asked: Asked;
}

/**
 * The mount of a path's `segments` under `root`: a discovery file when it is the one segment, the
 * page's Markdown when the last ends in `.md` (no slug has a dot), else the page.
 */
function mountAt(root: URL, segments: string[]): Mount {
  const last = segments.at(-1);
  if (segments.length === 1 && last !== undefined && isDiscoveryFile(last))
    return { root, asked: { kind: last } };
  if (segments.length === 1 && last === SEARCH_PAGE) return { root, asked: { kind: "search" } };
  const asset = segments.length === 1 && last !== undefined ? assetNamed(last) : undefined;
  if (asset) return { root, asked: { kind: "asset", asset } };
  if (last?.endsWith(MARKDOWN_SUFFIX))
    return {
      root,
      asked: {
        kind: "markdown",
        segments: [...segments.slice(0, -1), last.slice(0, -MARKDOWN_SUFFIX.length)],
      },
    };
  return { root, asked: { kind: "page", segments } };
}

/** A visitor's token once verified: its claims, and when it expires (seconds since the epoch). */
interface VisitorToken {
  claims: Claims;
  exp: number;
}

/**
 * A visitor let in: the claims of their verified token (none when anonymous) and when it expires
 * (seconds since the epoch), and their share key.
 */
interface Admitted {
  claims: Claims;
  expiresAt?: number;
  shareKey?: string;
}

/** What a request for a page is kept as in the page cache, and the database's write count before any read. */
interface Visit {
  key: string | undefined;
  writes: number | undefined;
}

/** Which section and site space a path names, and the page path left after them. */
interface Place {
  section: SiteSectionTable | undefined;
  siteSpace: SiteSpaceEntry;
  pagePath: string;
}

/**
 * The section whose path opens `segments`, else the default section; then likewise the site
 * space of that section (or of the site's root when it has no sections). Undefined when the
 * structure shows the visitor nothing.
 */
function placeOf(structure: SiteStructure, segments: readonly string[]): Place | undefined {
  let rest = segments;
  let section: SiteSectionTable | undefined;
  if (structure.sections.length > 0) {
    section = structure.sections.find((s) => s.path === rest[0]);
    if (section) rest = rest.slice(1);
    else section = structure.sections.find((s) => isSet(s.is_default));
  }
  const container = structure.siteSpaces.filter((entry) => entry.row.section_id === (section?.id ?? null));
  let siteSpace = container.find((entry) => entry.row.path === rest[0]);
  if (siteSpace) rest = rest.slice(1);
  else siteSpace = container.find((entry) => isSet(entry.row.is_default));
  return siteSpace && { section, siteSpace, pagePath: rest.join("/") };
}

/** A page's body as stored ("" when it has none). */
async function markdownOf(storage: ContentStorage, page: PageEntry): Promise<string> {
  const [body = ""] = await storage.bodies([page.document]);
  return body;
}

/** What `llms.txt` calls a site space: its section, and its space when the section has several. */
function headingOf(structure: SiteStructure, entry: SiteSpaceEntry): string {
  const section = sectionOf(structure, entry);
  if (!section) return siteSpaceTitle(entry);
  const siblings = structure.siteSpaces.filter((other) => other.row.section_id === section.id);
  return siblings.length > 1 ? `${section.title} / ${siteSpaceTitle(entry)}` : section.title;
}

/** How many pages' bodies `llms-full.txt` reads at a time. */
const LISTING_BATCH = 64;

/** A site space's published pages as listed (`sitemap.xml`, `llms.txt`): what depends on its revision only. */
interface SpaceListing {
  tree: PageTree;
  storage: ContentStorage;
  /**
   * Its pages in order, but those their front matter hides, with the description it gives, and
   * whether it asks search engines not to index the page.
   */
  pages: { page: PageEntry; description?: string; noRobotsIndex?: true }[];
}

/**
 * A site space's pages with their front matter's metadata, as stored when their bodies were written
 * (no body is read). Groups and links are no pages to list: they have no body, and no URL of their own.
 */
async function listSpace(db: Services["db"], entry: SiteSpaceEntry): Promise<SpaceListing> {
  const { storage, tree } = await mainContent(db, entry);
  const ordered = tree.inOrder().filter((page) => page.kind === undefined);
  const meta = await storage.pageMeta(ordered.flatMap((page) => (page.document ? [page.document] : [])));
  const pages: SpaceListing["pages"] = [];
  for (const page of ordered) {
    const frontMatter = page.document ? meta.get(page.document) : undefined;
    if (frontMatter?.hidden) continue;
    pages.push({
      page,
      ...(frontMatter?.description && { description: frontMatter.description }),
      ...(frontMatter?.noRobotsIndex && { noRobotsIndex: true }),
    });
  }
  return { tree, storage, pages };
}

/**
 * The key a request for a page is kept by in the page cache: its host, path and what admits the
 * visitor (share key, visitor token). None for a visit that brings its token in the URL (it is
 * answered with a cookie to set, never from the cache) or a key twice.
 */
function visitOf(pages: PageCache, req: IncomingMessage): Visit {
  const writes = pages.writes();
  const [path = "", query = ""] = (req.url ?? "").split("?", 2);
  const parameters = new URLSearchParams(query);
  const shares = parameters.getAll(SHARE_KEY_PARAMETER);
  if (parameters.has(VISITOR_TOKEN_PARAMETER) || shares.length > 1) return { key: undefined, writes };
  const token = parseCookies(req.headers.cookie ?? "")[VISITOR_TOKEN_COOKIE];
  return { key: [req.headers.host, path, shares[0] ?? "", token ?? ""].join("\n"), writes };
}

/**
 * Published pages the page cache holds and may send without a check (see `PageCache.fresh`),
 * answered before any route: what most visits of a published site are.
 */
export function keptPages({ db, clock }: Services): KeptAnswers {
  const pages = pageCacheOf(db);
  return async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const { key } = visitOf(pages, req);
    if (key === undefined) return false;
    const accepted = acceptedEncodings(req.headers["accept-encoding"]);
    const kept = await pages.fresh(key, clock.now().getTime() / 1000, accepted);
    if (!kept) return false;
    sendPage(req, res, kept);
    return true;
  };
}

/**
 * Serves published sites as HTML, to visitors rather than API callers: at `/s/<site id>/…`, and at
 * the root of a site's proxy origin when a request comes with that origin's host. A site answers
 * only once published, and then to the audience of its visibility: anyone for public and unlisted
 * sites, holders of an active share link's key for `share-link` ones, holders of a token signed
 * with the site's visitor key for `visitor-auth` ones. Any visitor's verified claims decide which
 * conditional sections and site spaces they see.
 */
export function publishedSiteRoutes(router: Router, services: Services): void {
  const { db, urls, secretKey, clock } = services;
  const publicHost = new URL(urls.api("")).host;
  const secureCookies = new URL(urls.api("")).protocol === "https:";

  /** A page that says why there is nothing to show, styled by the assets at `root`. */
  const answer = (res: Response, root: URL, status: number, title: string, message: string) =>
    res
      .status(status)
      .type("html")
      .send(renderMessage(title, message, root.pathname));

  /**
   * The token when it is signed with the site's key, expires, and fits the site's schema;
   * `"unexpiring"` when it is signed but has no `exp`, which would let it in for ever.
   */
  async function verifiedToken(
    site: SiteRow,
    token: string,
  ): Promise<VisitorToken | "unexpiring" | undefined> {
    const opened = openVisitorAuthKey(secretKey, site.id, site.auth_key);
    // A key this server cannot open verifies no token: visitors are refused until it is regenerated.
    if (opened === undefined) return undefined;
    const key = new TextEncoder().encode(opened);
    try {
      // The type's `exp` is what `requiredClaims` has checked: present and a number.
      const { payload } = await jwtVerify<{ exp: number }>(token, key, {
        algorithms: ["HS256"],
        requiredClaims: ["exp"],
        currentDate: clock.now(),
      });
      const schema = site.adaptive_schema === null ? undefined : fromJson(site.adaptive_schema);
      return schema && claimsProblem(schema, payload) !== undefined
        ? undefined
        : { claims: payload, exp: payload.exp };
    } catch (error) {
      if (
        error instanceof joseErrors.JWTClaimValidationFailed &&
        error.claim === "exp" &&
        error.reason === "missing"
      )
        return "unexpiring";
      if (error instanceof joseErrors.JOSEError) return undefined;
      throw error;
    }
  }

  /** Lets the visitor in, or answers why not and returns undefined. */
  async function admit(
    site: SiteRow,
    mount: Mount,
    req: Request,
    res: Response,
  ): Promise<Admitted | undefined> {
    const given = req.query[VISITOR_TOKEN_PARAMETER];
    const fromQuery = typeof given === "string" ? given : undefined;
    const token = fromQuery ?? parseCookies(req.headers.cookie ?? "")[VISITOR_TOKEN_COOKIE];
    const verified = token === undefined ? undefined : await verifiedToken(site, token);
    const claims = typeof verified === "object" ? verified.claims : undefined;
    const expiry = typeof verified === "object" ? { expiresAt: verified.exp } : {};
    if (typeof verified === "object" && fromQuery !== undefined)
      res.append(
        "Set-Cookie",
        serializeCookie(VISITOR_TOKEN_COOKIE, fromQuery, {
          httpOnly: true,
          sameSite: "lax",
          secure: secureCookies,
          path: mount.root.pathname,
          maxAge: Math.min(verified.exp - Math.floor(clock.now().getTime() / 1000), VISITOR_COOKIE_MAX_AGE),
        }),
      );

    if (site.visibility === "visitor-auth" && !claims) {
      // Not sent to sign in: the sign-in service made this token, and would make the same one again.
      if (verified === "unexpiring")
        answer(
          res,
          mount.root,
          401,
          "Sign-in required",
          "This sign-in token has no expiry; the site accepts only tokens with one (an exp claim).",
        );
      else if (site.auth_fallback_url !== null) res.redirect(site.auth_fallback_url);
      else answer(res, mount.root, 401, "Sign-in required", "This site is open to signed-in visitors only.");
      return undefined;
    }
    if (site.visibility === "share-link") {
      const key = req.query[SHARE_KEY_PARAMETER];
      const link = typeof key === "string" ? await activeShareLink(db, site.id, key) : undefined;
      if (!link) {
        answer(res, mount.root, 404, "Not found", "There is no page here.");
        return undefined;
      }
      return { claims: claims ?? {}, ...expiry, shareKey: link.share_key };
    }
    return { claims: claims ?? {}, ...expiry };
  }

  const notFound = (res: Response, root: URL) =>
    answer(res, root, 404, "Not found", "There is no page here.");

  // Listings are kept by space revision and shared by every request for them: crawlers asking for
  // a site's sitemap again and again cost one read of its pages per published revision, not per visit.
  const listings = new RecentlyUsed<Promise<SpaceListing>>(256);
  const listingOf = (entry: SiteSpaceEntry): Promise<SpaceListing> => {
    const key = `${entry.space.id} ${entry.space.revision_id}`;
    const kept = listings.get(key);
    if (kept) return kept;
    const listing = listSpace(db, entry);
    listings.set(key, listing);
    // A failure (a busy pool) is not kept: the next request tries again.
    listing.catch(() => listings.delete(key));
    return listing;
  };

  /**
   * The pages of every site space of `structure`, in order, at their URLs under `urlAt`. With
   * `maxBytes`, their bodies too, read until they pass that many bytes: the pages after are not read
   * (`llmsFullText` cuts there).
   */
  async function listedGroups(
    structure: SiteStructure,
    urlAt: (segments: ReadonlyArray<string | undefined>) => string,
    maxBytes?: number,
  ): Promise<ListedGroup[]> {
    const groups: ListedGroup[] = [];
    let bytes = 0;
    const full = () => maxBytes !== undefined && bytes > maxBytes;
    for (const entry of structure.siteSpaces) {
      if (full()) break;
      const { tree, storage, pages } = await listingOf(entry);
      const listed: ListedPage[] = [];
      for (let start = 0; start < pages.length && !full(); start += LISTING_BATCH) {
        const batch = pages.slice(start, start + LISTING_BATCH);
        const bodies =
          maxBytes === undefined ? undefined : await storage.bodies(batch.map(({ page }) => page.document));
        for (const [i, { page, description, noRobotsIndex }] of batch.entries()) {
          if (full()) break;
          const url = urlAt(pageSegments(structure, entry, tree, page));
          const markdown = bodies?.[i];
          bytes += Buffer.byteLength(markdown ?? "");
          listed.push({
            title: page.title,
            url,
            markdownUrl: markdownUrl(url),
            ...(description && { description }),
            ...(noRobotsIndex && { noRobotsIndex }),
            ...(markdown !== undefined && { markdown }),
          });
        }
      }
      groups.push({ heading: headingOf(structure, entry), pages: listed });
    }
    return groups;
  }

  /** The visitor let in and the structure they are shown, or undefined once answered why not. */
  async function enter(site: SiteRow, mount: Mount, req: Request, res: Response) {
    const visitor = await admit(site, mount, req, res);
    if (!visitor) return undefined;
    const structure = publishedStructure(await loadSiteStructure(db, site), { claims: visitor.claims });
    return { visitor, structure };
  }

  /**
   * The place `segments` name in the structure, its site space's content, and the page there (the
   * first document at the site space's root); undefined when the structure shows no site space.
   */
  async function locate(structure: SiteStructure, segments: readonly string[]) {
    const place = placeOf(structure, segments);
    if (!place) return undefined;
    const content = await mainContent(db, place.siteSpace);
    return { place, ...content, page: content.tree.atPath(place.pagePath) };
  }

  /**
   * What every page shows around its content, for a visitor in `place`, and where its pages are,
   * branded with `settings` (the site space's customization).
   * Links keep to the host the visitor came by: the path and query of each URL, without its origin.
   */
  /** Where the site's paths are for the visitor (with their share key), and its pages' among them. */
  function hrefsFor(
    root: URL,
    visitor: Admitted,
    structure: SiteStructure,
    place: Place,
    tree: PageTree,
    pageFiles: ReadonlyMap<string, string>,
  ) {
    const urlAt = urlsUnder(root, visitor.shareKey);
    const at = (segments: ReadonlyArray<string | undefined>) => {
      const url = new URL(urlAt(segments));
      return `${url.pathname}${url.search}`;
    };
    const pageOfFile = new Map([...pageFiles].map(([pageId, path]) => [path, pageId]));
    // A link of SUMMARY.md to an anchor of a page of the space (`inline.md#buttons`) leads to that page.
    const inSpace = (href: string) => {
      if (URL.canParse(href) || href.startsWith("/") || href.startsWith("#")) return undefined;
      const linked = linkedFile(SUMMARY_FILE, href);
      const page = linked && tree.get(pageOfFile.get(linked.file) ?? "");
      if (!page || page.kind !== undefined) return undefined;
      const anchor = linked?.anchor ? `#${encodeURIComponent(linked.anchor)}` : "";
      return `${at(pageSegments(structure, place.siteSpace, tree, page))}${anchor}`;
    };
    // A link page has no path of its own: what leads to it leads where it does.
    const pageHref = (target: PageEntry) =>
      (target.kind === "link" &&
        ((target.href !== undefined && inSpace(target.href)) || safeHref(target.href))) ||
      at(pageSegments(structure, place.siteSpace, tree, target));
    return { at, pageHref };
  }

  function chromeFor(
    root: URL,
    visitor: Admitted,
    structure: SiteStructure,
    place: Place,
    tree: PageTree,
    settings: CustomizationSettings,
    pageFiles: ReadonlyMap<string, string>,
  ) {
    const { at, pageHref } = hrefsFor(root, visitor, structure, place, tree, pageFiles);
    // The customization's links to content: pages of the visitor's space and the site's spaces; what
    // the site does not show (another space's page, a file, a user) gets no link.
    const pageOf = (pageId: string | undefined, spaceId: string | undefined) => {
      if (spaceId !== undefined && spaceId !== place.siteSpace.space.id) return undefined;
      const target = pageId === undefined ? undefined : tree.get(pageId);
      return target && pageHref(target);
    };
    const resolve: ResolveLink = (target) => {
      switch (target.kind) {
        case "page":
          return pageOf(target.page, target.space);
        case "anchor": {
          const page = target.page === undefined ? "" : pageOf(target.page, target.space);
          return page === undefined ? undefined : `${page}#${encodeURIComponent(target.anchor)}`;
        }
        case "space": {
          const entry = structure.siteSpaces.find((candidate) => candidate.space.id === target.space);
          return entry && at(siteSpaceSegments(structure, entry));
        }
        default:
          return undefined;
      }
    };
    const chrome: SiteChrome = {
      siteTitle: siteTitleOf(settings, structure.site.title),
      brand: { settings, resolve, style: brandStyle(settings) },
      indexable: structure.site.visibility === "public",
      ...(place.siteSpace.space.language !== null && { language: place.siteSpace.space.language }),
      sections: sectionLinks(structure.sections, place.section, (section) => at([sectionUrlPath(section)])),
      siteSpaces: siteSpaceLinks(
        structure.siteSpaces.filter((entry) => entry.row.section_id === place.siteSpace.row.section_id),
        place.siteSpace,
        (entry) => at(siteSpaceSegments(structure, entry)),
      ),
      tree,
      homeHref: at(siteSpaceSegments(structure, place.siteSpace)),
      assetsHref: root.pathname,
      searchHref: at([SEARCH_PAGE]),
      pageHref,
    };
    return { chrome, pageHref, at };
  }

  /**
   * The site's search page: the words of `q` over the spaces the visitor sees (their claims decide
   * which sections and site spaces), each result linking to its page's section on the site.
   */
  async function searchPage(
    root: URL,
    visitor: Admitted,
    structure: SiteStructure,
    req: Request,
    res: Response,
  ) {
    const place = placeOf(structure, []);
    if (!place)
      return void answer(res, root, 404, structure.site.title, "This site has no content to show yet.");
    const { tree } = await mainContent(db, place.siteSpace);
    const settings = await customizationOf(db, structure.site.id, place.siteSpace.row.id);
    const pageFiles = await pagePaths(db, place.siteSpace.space.id);
    const { chrome, at } = chromeFor(root, visitor, structure, place, tree, settings, pageFiles);
    const q = typeof req.query.q === "string" ? req.query.q.slice(0, SEARCH_QUERY_MAX) : "";
    const spaceIds = searchedSpaceIds(structure, { query: q });
    const { items } = await searchContent(
      db,
      urls,
      { organizationId: structure.site.organization_id, spaces: { spaceIds }, text: q },
      { limit: SEARCH_SPACES_SHOWN },
    );
    const hits = items.flatMap((space) => {
      const entry = structure.siteSpaces.find((candidate) => candidate.space.id === space.id);
      if (!entry) return [];
      return space.pages.map((page): SiteSearchHit => {
        const [section] = page.sections ?? [];
        const anchor = section && section.id !== page.id ? section.id : undefined;
        const href = at([...siteSpaceSegments(structure, entry), ...page.path.split("/")]);
        return {
          href: anchor ? `${href}#${anchor}` : href,
          title: page.title,
          ...(anchor && section?.title && { heading: section.title }),
          excerpt: section?.body ?? "",
        };
      });
    });
    res
      .set("Content-Security-Policy", contentSecurityPolicy(chrome.brand?.style))
      .type("html")
      .send(renderSearchPage({ ...chrome, query: q }, searchResultsContent(q, hits, termsOf(q))));
  }

  async function serve(
    site: SiteRow,
    mount: Mount,
    visit: Visit,
    req: Request,
    res: Response,
  ): Promise<void> {
    const { root, asked } = mount;
    // The same files for every site, whoever asks: they hold nothing of the site's.
    if (asked.kind === "asset") return sendAsset(req, res, asked.asset);
    res.set(PAGE_HEADERS);
    if (!isSet(site.published)) return void notFound(res, root);
    const indexable = site.visibility === "public";
    if (asked.kind === "robots.txt")
      return void res.type("text/plain").send(robotsText(indexable, new URL("sitemap.xml", root).toString()));
    if (asked.kind === "sitemap.xml") {
      if (!indexable) return void notFound(res, root);
      // What anyone sees: the conditions evaluated against no claims.
      const structure = publishedStructure(await loadSiteStructure(db, site), { claims: {} });
      const groups = await listedGroups(structure, urlsUnder(root));
      return void res
        .type("application/xml")
        .send(sitemapXml(groups.flatMap((g) => g.pages.flatMap((p) => (p.noRobotsIndex ? [] : [p.url])))));
    }

    const entered = await enter(site, mount, req, res);
    if (!entered) return;
    const { visitor, structure } = entered;
    if (asked.kind === "llms.txt" || asked.kind === "llms-full.txt") {
      // Links carry the visitor's share key, as the pages' do: they are to be followed.
      const urlAt = urlsUnder(root, visitor.shareKey);
      const text =
        asked.kind === "llms.txt"
          ? llmsText(site.title, await listedGroups(structure, urlAt))
          : llmsFullText(site.title, await listedGroups(structure, urlAt, LLMS_FULL_MAX_BYTES));
      return void res.type("text/plain").send(text);
    }

    if (asked.kind === "search") return searchPage(root, visitor, structure, req, res);
    // Where no page answers, the live redirect of the path does, if any: only once the visitor is let in.
    const redirected = () => redirectVisitor(db, { structure, root, shareKey: visitor.shareKey, asked }, res);
    const found = await locate(structure, asked.segments);
    if (asked.kind === "markdown") {
      // Only a document's own path names its Markdown: a site space's root is no page's.
      if (!found?.page || !found.place.pagePath || found.page.kind !== undefined)
        return void ((await redirected()) || notFound(res, root));
      const { storage, revision, tree, page, place } = found;
      const pageFiles = await pagePaths(db, revision.space_id);
      const { pageHref } = hrefsFor(root, visitor, structure, place, tree, pageFiles);
      const context = siteLinkContext(services, { storage, revision, tree, pageFiles }, pageHref);
      return void res
        .type("text/markdown")
        .send(await pageMarkdown(context, page, await markdownOf(storage, page)));
    }
    if (!found)
      return void (
        (await redirected()) || answer(res, root, 404, site.title, "This site has no content to show yet.")
      );
    const { place, storage, revision, tree, page } = found;

    const settings = await customizationOf(db, structure.site.id, place.siteSpace.row.id);
    const pageFiles = await pagePaths(db, revision.space_id);
    const { chrome, pageHref } = chromeFor(root, visitor, structure, place, tree, settings, pageFiles);
    res.set("Content-Security-Policy", contentSecurityPolicy(chrome.brand?.style));
    // A group is no page of its own: its path leads to its first document, so that a link to it is no
    // dead end. A link page has no path of its own (the navigation leads to where it does).
    const first = page?.kind === "group" ? tree.firstDocument(page.id) : undefined;
    if (first) return res.redirect(302, pageHref(first));
    // A path naming no page: the site's redirects, then the space's repository's (`.gitbook.yaml`), else
    // a page that keeps the visitor in the site, with its navigation.
    if (!page || page.kind !== undefined) {
      if (await redirected()) return;
      const moved = page ? undefined : await redirectedPage(db, place.siteSpace.space.id, place.pagePath);
      const target = moved === undefined ? undefined : tree.get(moved);
      if (target && target.kind === undefined)
        return res.redirect(structure.site.visibility === "public" ? 308 : 307, pageHref(target));
      return void res.status(404).type("html").send(renderSiteNotFound(chrome));
    }
    // Everything the page is made from: the site, what the visitor sees of it (each space's revision
    // included), where they are and how its links are written. The same, the page kept is the same.
    const fingerprint = fingerprintOf([
      structure.site,
      structure.sections,
      structure.siteSpaces.map(({ row, space }) => [row, space]),
      [place.section?.id, place.siteSpace.row.id, page.id],
      settings,
      root.href,
      visitor.shareKey,
    ]);
    const accepted = acceptedEncodings(req.headers["accept-encoding"]);
    if (visit.key !== undefined) {
      const kept = await pages.current(visit.key, fingerprint, visit.writes, accepted);
      if (kept) return sendPage(req, res, kept);
    }
    const context = siteLinkContext(services, { storage, revision, tree, pageFiles }, pageHref);
    const rendered = await renderPage(context, page, await markdownOf(storage, page));
    const { body, description, headings, metaLinks, layout } = rendered;
    // A page's meta links to pages lead where its links do; to the web, where they say.
    const metaLinkUrl = (target: MetaLinkTarget) => {
      const href = target.kind === "url" ? target.url : chrome.brand?.resolve(target);
      return href === undefined ? undefined : new URL(href, root).toString();
    };
    const canonical = metaLinks?.canonical && metaLinkUrl(metaLinks.canonical);
    const html = renderPublishedPage({
      ...chrome,
      indexable: chrome.indexable && !rendered.noRobotsIndex,
      page,
      headings,
      body,
      layout,
      ...(description && { description }),
      // Without the share key or visitor token: the one URL the page is known by, unless it names one.
      canonicalUrl: canonical ?? urlsUnder(root)(pageSegments(structure, place.siteSpace, tree, page)),
      alternateUrls: (metaLinks?.alternates ?? []).flatMap((target) => metaLinkUrl(target) ?? []),
    });
    // Pages for everyone may be kept by shared caches, the others by the visitor's browser only;
    // both ask again each time, which the page's ETag answers with a 304 while it is unchanged.
    const shared = site.visibility === "public" && Object.keys(visitor.claims).length === 0;
    const headers = {
      ...PAGE_HEADERS,
      "Content-Security-Policy": contentSecurityPolicy(chrome.brand?.style),
      "Cache-Control": `${shared ? "public" : "private"}, no-cache`,
    };
    const kept = {
      fingerprint,
      html,
      headers,
      ...(visitor.expiresAt !== undefined && { expiresAt: visitor.expiresAt }),
    };
    sendPage(
      req,
      res,
      await pages.keep(visit.key ?? "", kept, visit.key === undefined ? undefined : visit.writes, accepted),
    );
  }

  const pages = pageCacheOf(db);

  router.get(`/${PUBLISHED_PREFIX}/:siteId{/*path}`, async (req, res, next) => {
    const visit = visitOf(pages, req);
    const site = await findSite(db, req.params.siteId);
    if (!site) return next();
    const segments = (req.params as { path?: string[] }).path?.filter((segment) => segment !== "") ?? [];
    await serve(site, mountAt(publishedRoot(urls, site.id), segments), visit, req, res);
  });

  // A site behind its own proxy: the request's host names the site, its path the site's root.
  router.use(async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const host = req.headers.host?.toLowerCase();
    if (!host || host === publicHost || !/^[a-z0-9.-]+(:\d+)?$/.test(host)) return next();
    const visit = visitOf(pages, req);
    const site = await siteAtHost(db, host.replace(/:\d+$/, ""));
    if (!site?.proxy_origin) return next();
    // The origin as its visitors reach it, over HTTPS: the scheme of canonical URLs and sitemaps.
    const root = new URL(`https://${site.proxy_origin.replace(/\/?$/, "/")}`);
    if (!`${req.path}/`.startsWith(root.pathname)) return next();
    const segments = req.path.slice(root.pathname.length).split("/").filter(Boolean).map(decodeURIComponent);
    await serve(site, mountAt(root, segments), visit, req, res);
  });
}
