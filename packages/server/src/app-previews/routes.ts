import type { Request, Response, Router } from "express";
import { h } from "hastscript";
import { sessionSecretOf } from "../auth/authenticate.js";
import type { Caller } from "../auth/caller.js";
import { sessionHolder } from "../auth/sessions.js";
import { ApiError } from "../http/errors.js";
import type { Services } from "../services.js";
import { assetNamed, CONTENT_SECURITY_POLICY, sendAsset } from "../sites/index.js";
import { SECURITY_PAGE, SIGN_IN_PAGE, SIGN_OUT_PAGE } from "../urls.js";
import { previews, type Visit } from "./previews.js";
import { spaRoutes } from "./spa.js";
import { type PreviewView, renderPreview } from "./view.js";

/** The app's paths, under the server's root: every `urls.app` is under it. */
const APP = "/app";

/**
 * The previews behind every `urls.app` of the API, as HTML in the published sites' look, for a person
 * signed in (the session cookie of the sign-in pages). A visitor not signed in is sent to sign in and
 * back; whoever asks for what the API would not show them gets the same 404.
 */
export function appPreviewRoutes(router: Router, services: Services): void {
  const { db, urls, clock } = services;
  const show = previews(services);
  const href = (appPath: string) => new URL(urls.app(appPath)).pathname;
  const signInPath = new URL(urls.page(SIGN_IN_PAGE)).pathname;
  const signOutPath = new URL(urls.page(SIGN_OUT_PAGE)).pathname;
  const securityPath = new URL(urls.page(SECURITY_PAGE)).pathname;

  /**
   * Who is signed in, or undefined after answering for the others: a visitor signed out is sent to sign
   * in and back; a person whose organization requires a second factor they lack, to add one first.
   */
  async function holderOf(req: Request, res: Response) {
    const secret = sessionSecretOf(req);
    const holder = secret ? await sessionHolder(db, secret, clock.now()) : undefined;
    if (!holder) return void res.redirect(303, `${signInPath}?next=${encodeURIComponent(req.originalUrl)}`);
    if (holder.lacksRequiredFactor) return void res.redirect(303, securityPath);
    return holder;
  }

  // The app (packages/app) at /app/, and at every path under it that names no preview (its own routes).
  const appPage = spaRoutes(router, APP, async (req, res) => (await holderOf(req, res)) !== undefined);

  /** What every preview carries: the sites' policy (no script, no framing), and no copy kept on the way. */
  const previewHeaders = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  };

  /** The signed-in bar above a preview: who they are, and a way out. */
  const signedInAs = (caller: Caller) =>
    h("form", { method: "post", action: signOutPath, class: "search" }, [
      h("span", `Signed in as ${caller.user.display_name}`),
      h("button", { type: "submit" }, "Sign out"),
    ]);

  const page = (res: Response, status: number, view: PreviewView) =>
    res
      .status(status)
      .set(previewHeaders)
      .type("html")
      .send(renderPreview(view, href("")));

  /** One answer for a missing resource and a hidden one: nothing tells them apart. */
  const notFound = (res: Response) =>
    page(res, 404, {
      siteTitle: "Quire",
      homeHref: href(""),
      searchHref: href(""),
      subject: { title: "Not found" },
      content: [h("p", "There is nothing to show here.")],
      canonicalUrl: urls.app(""),
    });

  /** The preview a path under the app names, or undefined when it names none. */
  function previewAt(visit: Visit, segments: readonly string[]) {
    const [kind, id, sub, subId, ...rest] = segments;
    // The app's home (`spa.ts`) is no preview.
    if (kind === undefined) return undefined;
    // A revision is still previewed, until the history's screen; everything else is the app's.
    if (kind === "spaces" && id !== undefined && sub === "revisions" && subId !== undefined)
      return show.revision(visit, id, subId, rest.join("/"));
    return undefined;
  }

  router.get(`${APP}{/*path}`, async (req, res) => {
    const segments = (req.params as { path?: string[] }).path?.filter((segment) => segment !== "") ?? [];
    // The sites' style sheet and script, which the previews use too: the same for everyone.
    const asset = segments.length === 1 && segments[0] !== undefined ? assetNamed(segments[0]) : undefined;
    if (asset) {
      res.set(previewHeaders);
      return sendAsset(req, res, asset);
    }
    const holder = await holderOf(req, res);
    if (!holder) return;
    const caller: Caller = { user: holder.user, sessionId: holder.sessionId };
    const visit = { caller, href };
    try {
      const view = await previewAt(visit, segments);
      // What no preview shows is the app's to route (and to say when it names nothing).
      if (!view) return await appPage(res);
      page(res, 200, { ...view, content: [signedInAs(caller), ...view.content] });
    } catch (error) {
      // Hidden (404) and not allowed (403) look alike: the resource stays unknown.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) return void notFound(res);
      throw error;
    }
  });
}
