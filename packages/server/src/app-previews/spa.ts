import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import express, { type Request, type Response, type Router } from "express";

/**
 * The app's policy: its own scripts, styles and API only, nothing inline (the build writes none), no
 * framing, forms only to this origin (sign-out, the search preview).
 */
export const APP_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

/**
 * Where `@quire/app`'s build is (`vite build` writes it), found through the workspace's link to the
 * package. Turbo builds it before the server (turbo.json); it is no dependency of the server's, which
 * would close a loop (the app uses the client, whose tests start the server).
 */
export function appBuildDirectory(): string {
  return join(dirname(createRequire(import.meta.url).resolve("@quire/app/package.json")), "dist");
}

const HEADERS = {
  "Content-Security-Policy": APP_CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};

/** A year: an asset's name carries its content's hash, so a new build has new names. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * Serves the single-page app (`packages/app`) at `${base}/` and `${base}/index.html` to a person signed
 * in (`signedIn` answers for the others, as the previews do), and its hashed assets at
 * `${base}/assets/*` to anyone. Without a build, a 503 that says so. Returns what sends the app's page
 * (to one already known to be signed in), for the other paths under `base` the app routes itself.
 */
export function spaRoutes(
  router: Router,
  base: string,
  signedIn: (req: Request, res: Response) => Promise<boolean>,
  dist: string = appBuildDirectory(),
): (res: Response) => Promise<void> {
  const unbuilt = (res: Response) =>
    res
      .status(503)
      .set({ ...HEADERS, "Cache-Control": "no-store" })
      .type("text/plain")
      .send("The app is not built: run `npm run build` (or `npm start`), which builds packages/app.\n");

  const sendApp = async (res: Response) => {
    let html: string;
    try {
      // Read on every visit (a small file): a new build is served without a restart.
      html = await readFile(join(dist, "index.html"), "utf8");
    } catch {
      return void unbuilt(res);
    }
    res
      .status(200)
      .set({ ...HEADERS, "Cache-Control": "no-cache" })
      .type("html")
      .send(html);
  };
  const home = async (req: Request, res: Response) => {
    if (await signedIn(req, res)) await sendApp(res);
  };
  router.get([`${base}/`, `${base}/index.html`], home);

  const assets = express.static(join(dist, "assets"), {
    index: false,
    redirect: false,
    maxAge: 31_536_000_000,
    immutable: true,
    fallthrough: true,
    setHeaders: (res) => {
      res.set(HEADERS);
      res.setHeader("Cache-Control", IMMUTABLE);
    },
  });
  router.use(`${base}/assets`, assets, (_req, res) => {
    res
      .status(404)
      .set({ ...HEADERS, "Cache-Control": "no-store" })
      .type("text/plain")
      .send("No such asset.\n");
  });
  return sendApp;
}
