import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Request, Response } from "express";
import { SIGN_IN_PAGE } from "../urls.js";
import { PAGES_CSS } from "./pages-style.js";

/** Where the pages' scripts and style sheet are served, to anyone: signed out on the second-factor page too. */
export const SCRIPTS_PATH = `${SIGN_IN_PAGE}/scripts`;

/**
 * The passkey buttons of the second-factor and security pages (their policy allows no inline script).
 * A button is hidden until this shows it, in a browser that has WebAuthn; its data attributes name
 * where the options come from (`data-options`), where the browser's answer goes (`data-verify`) and
 * the element telling how it went (`data-status`). Adding a passkey goes through the API, with the
 * header that writes with the session cookie need.
 */
const PASSKEY_SCRIPT = `"use strict";
(() => {
  const { browserSupportsWebAuthn, startAuthentication, startRegistration } = SimpleWebAuthnBrowser;
  const post = async (url, body, headers) => {
    const res = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(answer.error?.message ?? "The server refused it.");
    return answer;
  };
  const bind = (button, run) => {
    if (!button || !browserSupportsWebAuthn()) return;
    const status = document.getElementById(button.dataset.status);
    button.hidden = false;
    button.addEventListener("click", async () => {
      button.disabled = true;
      status.textContent = "Waiting for your passkey…";
      try {
        await run(button.dataset);
      } catch (err) {
        status.textContent = err instanceof Error ? err.message : String(err);
        button.disabled = false;
      }
    });
  };
  bind(document.getElementById("use-passkey"), async ({ options, verify }) => {
    const response = await startAuthentication({ optionsJSON: await post(options, {}) });
    location.assign((await post(verify, response)).location);
  });
  bind(document.getElementById("add-passkey"), async ({ options, verify }) => {
    const csrf = { "X-Quire-CSRF": "1" };
    const response = await startRegistration({ optionsJSON: (await post(options, {}, csrf)).options });
    await post(verify, { response }, csrf);
    location.reload();
  });
})();
`;

/** A script or style sheet of these pages, named after a digest of its content: cached for a year. */
export interface Script {
  name: string;
  body: Buffer;
}

const asset = (base: string, text: string, extension: "js" | "css"): Script => {
  const body = Buffer.from(text);
  const digest = createHash("sha256").update(body).digest("base64url").slice(0, 12);
  return { name: `${base}.${digest}.${extension}`, body };
};
const script = (base: string, text: string) => asset(base, text, "js");

// The package exports its modules only: its browser bundle is found next to them.
const webAuthnBundle = join(
  dirname(createRequire(import.meta.url).resolve("@simplewebauthn/browser")),
  "..",
  "dist/bundle/index.umd.min.js",
);

/** simplewebauthn's browser bundle (global `SimpleWebAuthnBrowser`), then ours, which uses it. */
export const PAGE_SCRIPTS: readonly Script[] = [
  script("webauthn", readFileSync(webAuthnBundle, "utf8")),
  script("passkey", PASSKEY_SCRIPT),
];

/** The pages' own look (`PAGE_STYLE`): a card on a plain page, light or dark as the system is. */
export const PAGE_STYLE: Script = asset("pages", PAGES_CSS, "css");

export function sendScript(res: Response, found: Script): void {
  res
    .set({ "Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff" })
    .type(found.name.endsWith(".css") ? "text/css" : "text/javascript")
    .send(found.body);
}

/** The script or style sheet a request names, if any. */
export const scriptNamed = (req: Request): Script | undefined =>
  [...PAGE_SCRIPTS, PAGE_STYLE].find((candidate) => candidate.name === req.params.script);
