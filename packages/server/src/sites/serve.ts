import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import type { Request, Response, Router } from "express";
import { errors as joseErrors, jwtVerify } from "jose";
import { contentEngine } from "../content/engine/index.js";
import { References } from "../content/engine/references.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import type { PageEntry } from "../content/trie.js";
import { fromJson, isSet } from "../db/codecs.js";
import { publicBase, revisionFiles } from "../files/index.js";
import { ApiError } from "../http/errors.js";
import type { Services } from "../services.js";
import { claimsProblem } from "./adaptive-schema.js";
import type { Claims } from "./conditions.js";
import { siteLinks } from "./page-links.js";
import { publishedStructure } from "./published.js";
import {
  CONTENT_SECURITY_POLICY,
  renderMessage,
  renderPublishedPage,
  sectionLinks,
  siteSpaceLinks,
} from "./render.js";
import { activeShareLink, findSite, type SiteRow, siteAtHost } from "./store.js";
import { loadSiteStructure, type SiteSpaceEntry, type SiteStructure } from "./structure.js";
import type { SiteSectionTable } from "./tables.js";
import {
  PUBLISHED_PREFIX,
  publishedRoot,
  SHARE_KEY_PARAMETER,
  sectionUrlPath,
  siteSpaceUrlPath,
  urlsUnder,
} from "./urls.js";
import { openVisitorAuthKey } from "./visitor-auth.js";

/** GitBook's name for the visitor token in a site's URL; it is then kept in a cookie for the next pages. */
export const VISITOR_TOKEN_PARAMETER = "jwt_token";
const VISITOR_TOKEN_COOKIE = "quire_visitor";
/**
 * The longest the cookie keeps a visitor's token, in seconds, however late the token expires: a day,
 * so that a long-lived token left in a browser is asked for again, as the site's sign-in service
 * would then decide afresh.
 */
const VISITOR_COOKIE_MAX_AGE = 24 * 60 * 60;

/** Where a site is served from (its root URL, ending in `/`) and the path asked for under it. */
interface Mount {
  root: URL;
  segments: string[];
}

/** A visitor's token once verified: its claims, and when it expires (seconds since the epoch). */
interface VisitorToken {
  claims: Claims;
  exp: number;
}

/** A visitor let in: the claims of their verified token (none when anonymous) and their share key. */
interface Admitted {
  claims: Claims;
  shareKey?: string;
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

/** The pages of the site space's space, as its main content stands. */
async function mainContent(db: Services["db"], siteSpace: SiteSpaceEntry) {
  const { space } = siteSpace;
  const storage = new ContentStorage(db, space.id);
  const revision = await revisionOf(db, space.id, space.revision_id);
  return { storage, revision, tree: await treeOf(storage, revision) };
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

  const answer = (res: Response, status: number, title: string, message: string) =>
    res.status(status).type("html").send(renderMessage(title, message));

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
          401,
          "Sign-in required",
          "This sign-in token has no expiry; the site accepts only tokens with one (an exp claim).",
        );
      else if (site.auth_fallback_url !== null) res.redirect(site.auth_fallback_url);
      else answer(res, 401, "Sign-in required", "This site is open to signed-in visitors only.");
      return undefined;
    }
    if (site.visibility === "share-link") {
      const key = req.query[SHARE_KEY_PARAMETER];
      const link = typeof key === "string" ? await activeShareLink(db, site.id, key) : undefined;
      if (!link) {
        answer(res, 404, "Not found", "There is no page here.");
        return undefined;
      }
      return { claims: claims ?? {}, shareKey: link.share_key };
    }
    return { claims: claims ?? {} };
  }

  async function serve(site: SiteRow, mount: Mount, req: Request, res: Response): Promise<void> {
    res.set({ "Content-Security-Policy": CONTENT_SECURITY_POLICY, "X-Content-Type-Options": "nosniff" });
    if (!isSet(site.published)) return void answer(res, 404, "Not found", "There is no page here.");
    const visitor = await admit(site, mount, req, res);
    if (!visitor) return;

    const structure = publishedStructure(await loadSiteStructure(db, site), { claims: visitor.claims });
    const place = placeOf(structure, mount.segments);
    if (!place) return void answer(res, 404, site.title, "This site has no content to show yet.");
    const { storage, revision, tree } = await mainContent(db, place.siteSpace);
    const references = new References(tree, publicBase(urls));
    const page = place.pagePath ? tree.atPath(place.pagePath) : tree.children(null)[0];
    if (!page) return void answer(res, 404, "Not found", "There is no page here.");

    // Links keep to the host the visitor came by: the path and query of each URL, without its origin.
    const urlAt = urlsUnder(mount.root, visitor.shareKey);
    const at = (segments: ReadonlyArray<string | undefined>) => {
      const url = new URL(urlAt(segments));
      return `${url.pathname}${url.search}`;
    };
    const siteSpaceSegments = (entry: SiteSpaceEntry) => {
      const section = structure.sections.find((s) => s.id === entry.row.section_id);
      return [section && sectionUrlPath(section), siteSpaceUrlPath(entry.row)];
    };
    const pageHref = (target: PageEntry) =>
      at([...siteSpaceSegments(place.siteSpace), ...tree.path(target).split("/")]);
    const markdown =
      page.document === null ? "" : ((await storage.documents([page.document])).get(page.document) ?? "");
    const engine = contentEngine();
    const body = await engine
      .analyze(markdown)
      .then(async ({ links }) => {
        const scope = { spaceId: revision.space_id, changeRequestId: null };
        const files = async () =>
          new Map((await revisionFiles(db, scope, revision.created_at)).map((file) => [file.id, file]));
        const context = { references, storage, files, urls, secretKey, pageHref };
        return engine.renderHtml(markdown, await siteLinks(context, page, links));
      })
      .then(
        (html) => ({ html }),
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 422) return { refused: error.message };
          throw error;
        },
      );
    res.type("html").send(
      renderPublishedPage({
        siteTitle: site.title,
        indexable: site.visibility === "public",
        sections: sectionLinks(structure.sections, place.section, (section) => at([sectionUrlPath(section)])),
        siteSpaces: siteSpaceLinks(
          structure.siteSpaces.filter((entry) => entry.row.section_id === place.siteSpace.row.section_id),
          place.siteSpace,
          (entry) => at(siteSpaceSegments(entry)),
        ),
        tree,
        page,
        body,
        pageHref,
      }),
    );
  }

  router.get(`/${PUBLISHED_PREFIX}/:siteId{/*path}`, async (req, res, next) => {
    const site = await findSite(db, req.params.siteId);
    if (!site) return next();
    const segments = (req.params as { path?: string[] }).path?.filter((segment) => segment !== "") ?? [];
    await serve(site, { root: publishedRoot(urls, site.id), segments }, req, res);
  });

  // A site behind its own proxy: the request's host names the site, its path the site's root.
  router.use(async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const host = req.headers.host?.toLowerCase();
    if (!host || host === publicHost || !/^[a-z0-9.-]+(:\d+)?$/.test(host)) return next();
    const site = await siteAtHost(db, host.replace(/:\d+$/, ""));
    if (!site?.proxy_origin) return next();
    const root = new URL(`http://${site.proxy_origin.replace(/\/?$/, "/")}`);
    if (!`${req.path}/`.startsWith(root.pathname)) return next();
    const segments = req.path.slice(root.pathname.length).split("/").filter(Boolean).map(decodeURIComponent);
    await serve(site, { root, segments }, req, res);
  });
}
