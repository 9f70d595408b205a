import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import express, { type Request, type Response, type Router } from "express";
import { h } from "hastscript";
import type { Caller } from "../auth/caller.js";
import { ApiError } from "../http/errors.js";
import type { Services } from "../services.js";
import { assetNamed, CONTENT_SECURITY_POLICY, sendAsset } from "../sites/index.js";
import { previews, type Visit } from "./previews.js";
import { closeSession, openSession, SESSION_MAX_AGE_MS, sessionCaller } from "./sessions.js";
import { type PreviewView, renderPreview } from "./view.js";

const SESSION_COOKIE = "quire_app_session";
/** The app's paths, under the server's root: every `urls.app` is under it, and the cookie goes to it only. */
const APP = "/app";
const SIGN_IN = `${APP}/sign-in`;
const SIGN_OUT = `${APP}/sign-out`;
/** A token is about 50 characters: a form past this is no sign-in. */
const FORM_LIMIT = "4kb";

/**
 * The previews behind every `urls.app` of the API, as HTML in the published sites' look, for a user
 * who signed in here with an API token (a cookie session, ended by signing out or by revoking the
 * token). Whoever else asks, or asks for what the API would not show them, gets the same 404.
 */
export function appPreviewRoutes(router: Router, services: Services): void {
  const { db, urls, clock } = services;
  const publicUrl = new URL(urls.app(""));
  const secure = publicUrl.protocol === "https:";
  const show = previews(services);
  const href = (appPath: string) => new URL(urls.app(appPath)).pathname;

  const cookie = (value: string, maxAgeMs: number) =>
    serializeCookie(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: "lax",
      secure,
      path: APP,
      maxAge: Math.floor(maxAgeMs / 1000),
    });
  const sessionId = (req: Request) => parseCookies(req.headers.cookie ?? "")[SESSION_COOKIE];

  /** What every answer carries: the sites' policy (no script, no framing), and no copy kept on the way. */
  router.use(APP, (_req, res, next) => {
    res.set({
      "Content-Security-Policy": CONTENT_SECURITY_POLICY,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    });
    next();
  });

  /** The signed-in bar above a preview: who they are, and a way out. */
  const signedInAs = (caller: Caller) =>
    h("form", { method: "post", action: SIGN_OUT, class: "search" }, [
      h("span", `Signed in as ${caller.user.display_name}`),
      h("button", { type: "submit" }, "Sign out"),
    ]);

  const page = (res: Response, status: number, view: PreviewView) =>
    res
      .status(status)
      .type("html")
      .send(renderPreview(view, href("")));

  /** A page of the app that belongs to no resource (sign-in, not found). */
  const appPage = (res: Response, status: number, title: string, content: PreviewView["content"]) =>
    page(res, status, {
      siteTitle: "Quire",
      homeHref: href(""),
      searchHref: href(""),
      subject: { title },
      content,
      canonicalUrl: urls.app(""),
    });

  const signInForm = (res: Response, status: number, next: string, message?: string) =>
    appPage(res, status, "Sign in", [
      message ? h("p", { role: "alert" }, message) : undefined,
      h("p", "Sign in with one of your API tokens to see previews of what the API shows you."),
      h("form", { method: "post", action: SIGN_IN }, [
        h("input", { type: "hidden", name: "next", value: next }),
        h("label", { for: "token" }, "API token"),
        h(
          "p",
          h("input", { type: "password", id: "token", name: "token", required: true, autocomplete: "off" }),
        ),
        h("button", { type: "submit" }, "Sign in"),
      ]),
    ]);

  /** One answer for a missing resource, a hidden one and a visitor not signed in: nothing tells them apart. */
  const notFound = (req: Request, res: Response, signedIn: boolean) =>
    appPage(res, 404, "Not found", [
      h("p", "There is nothing to show here."),
      signedIn
        ? undefined
        : h("p", h("a", { href: `${SIGN_IN}?next=${encodeURIComponent(req.originalUrl)}` }, "Sign in")),
    ]);

  /**
   * Whether a POST comes from the app's own pages: its `Origin` is the server's, or, without one, the
   * browser says it is same-origin. A form on another site can neither sign anyone in nor out.
   */
  const sameOrigin = (req: Request) => {
    const origin = req.headers.origin;
    if (origin !== undefined) return origin === publicUrl.origin;
    return req.headers["sec-fetch-site"] === "same-origin";
  };
  const refuseCrossSite = (res: Response) =>
    appPage(res, 403, "Refused", [h("p", "This form must be sent from this server's own pages.")]);

  /** Where to go after signing in: a path of the app on this server, else the app's home. */
  const nextPath = (next: unknown) => {
    if (typeof next !== "string" || !next.startsWith(`${APP}/`) || /[\\\s]/.test(next)) return href("");
    const url = new URL(next, publicUrl);
    return url.origin === publicUrl.origin && url.pathname.startsWith(`${APP}/`)
      ? `${url.pathname}${url.search}`
      : href("");
  };

  router.get(SIGN_IN, (req, res) => {
    signInForm(res, 200, nextPath(req.query.next));
  });

  const form = express.urlencoded({ extended: false, limit: FORM_LIMIT });

  router.post(SIGN_IN, form, async (req, res) => {
    if (!sameOrigin(req)) return void refuseCrossSite(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const next = nextPath(body.next);
    const token = typeof body.token === "string" ? body.token.trim() : "";
    const id = token ? await openSession(db, token, clock.now()) : undefined;
    if (!id) return void signInForm(res, 401, next, "That is not a valid API token.");
    res.append("Set-Cookie", cookie(id, SESSION_MAX_AGE_MS));
    res.redirect(303, next);
  });

  router.post(SIGN_OUT, async (req, res) => {
    if (!sameOrigin(req)) return void refuseCrossSite(res);
    const id = sessionId(req);
    if (id) await closeSession(db, id);
    res.append("Set-Cookie", cookie("", 0));
    res.redirect(303, SIGN_IN);
  });

  /** The preview a path under the app names, or undefined when it names none. */
  function previewAt(visit: Visit, segments: readonly string[], req: Request) {
    const query = (name: string) => (typeof req.query[name] === "string" ? req.query[name] : undefined);
    const [kind, id, sub, subId, ...rest] = segments;
    if (kind === undefined) return show.home(visit);
    if (kind === "spaces" && id !== undefined) {
      if (sub === "change-requests" && subId !== undefined)
        return show.changeRequest(visit, id, subId, rest.join("/"), query("comments"));
      if (sub === "revisions" && subId !== undefined) return show.revision(visit, id, subId, rest.join("/"));
      return show.space(visit, id, segments.slice(2).join("/"));
    }
    if (segments.length === 2 && id !== undefined) {
      if (kind === "orgs") return show.organization(visit, id);
      if (kind === "collections") return show.collection(visit, id);
      if (kind === "integrations") return show.integration(visit, id);
    }
    if (kind === "orgs" && id !== undefined && segments.length === 3 && sub === "search")
      return show.search(visit, id, query("q") ?? "");
    if (kind === "orgs" && id !== undefined && subId !== undefined && segments.length === 4) {
      if (sub === "sites") return show.site(visit, id, subId);
      if (sub === "integrations") return show.installation(visit, id, subId);
      if (sub === "openapi") return show.openApiSpec(visit, id, subId);
    }
    return undefined;
  }

  router.get(`${APP}{/*path}`, async (req, res) => {
    const segments = (req.params as { path?: string[] }).path?.filter((segment) => segment !== "") ?? [];
    // The sites' style sheet and script, which the previews use too: the same for everyone.
    const asset = segments.length === 1 && segments[0] !== undefined ? assetNamed(segments[0]) : undefined;
    if (asset) return sendAsset(req, res, asset);
    const id = sessionId(req);
    const caller = id ? await sessionCaller(db, id, clock.now()) : undefined;
    if (!caller) return void notFound(req, res, false);
    const visit = { caller, href };
    try {
      const view = await previewAt(visit, segments, req);
      if (!view) return void notFound(req, res, true);
      page(res, 200, { ...view, content: [signedInAs(caller), ...view.content] });
    } catch (error) {
      // Hidden (404) and not allowed (403) look alike, as does a malformed cursor: the resource stays unknown.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500)
        return void notFound(req, res, true);
      throw error;
    }
  });
}
