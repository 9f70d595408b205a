import { existsSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import { createRequire } from "node:module";
import type AxeCore from "axe-core";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

/** Debian's Chromium (`.ci/run` installs it, so CI never skips the browser tests), or `QUIRE_CHROMIUM`. */
const CHROMIUM = process.env.QUIRE_CHROMIUM ?? "/usr/bin/chromium";

/** Browser tests run where Chromium is installed, and always in CI (where its absence fails them). */
export const browserMissing = !existsSync(CHROMIUM) && !process.env.CI;

/**
 * For a `describe` block: serves `app()` on an ephemeral port of 127.0.0.1 and opens a headless
 * Chromium, both closed after the block; `open(path)` shows a path of the server in a new tab, in a
 * context of its own made with `options` (viewport, colour scheme…).
 */
export function inBrowser(app: () => RequestListener) {
  const server = createServer((req, res) => app()(req, res));
  let origin = "";
  let browser: Browser | undefined;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    /** Where the server listens (`http://127.0.0.1:<port>`), once the block's set-up ran. */
    origin: () => origin,
    async open(path: string, options: BrowserContextOptions = {}): Promise<Page> {
      if (!browser) throw new Error("The browser is not open: call open() inside a test.");
      const page = await browser.newPage(options);
      await page.goto(new URL(path, origin).toString());
      return page;
    },
  };
}

/**
 * What axe-core finds serious or critical on the page, each rule with the elements it names (a
 * context opened with `bypassCSP`: axe is a script, which the pages' policy refuses).
 */
export async function seriousViolations(page: Page) {
  // Once per document: a page the app changed in place still has it.
  if (!(await page.evaluate(() => "axe" in window)))
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve("axe-core") });
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: typeof AxeCore };
    return (await axe.run()).violations.map(({ id, impact, nodes }) => ({
      id,
      impact,
      targets: nodes.map((node) => node.target.join(" ")),
    }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
