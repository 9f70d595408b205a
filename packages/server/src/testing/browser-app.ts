import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { createApp, type QuireApp } from "../app.js";
import { generateSecretKey } from "../auth/secret-key.js";
import { bootstrapOwner, type FirstRun } from "../bootstrap.js";
import { timeOrderedIds } from "../context.js";
import { migrate } from "../db/database.js";
import { urlsFor } from "../urls.js";
import { browserMissing, inBrowser, seriousViolations } from "./browser.js";
import { openTestDatabase, type TestDatabase, testDatabaseKind } from "./database.js";
import { TestClock } from "./harness.js";

/** The password `servedApp` gives the owner. */
export const OWNER_PASSWORD = "a password of the owner";

/**
 * Whether a file of the app's browser tests is skipped: where Chromium is missing, and on PostgreSQL
 * unless the file is in the smoke set (`smoke`): every screen runs on SQLite, a few flows on both.
 */
export const appTestsSkipped = ({ smoke = false } = {}) =>
  browserMissing || (testDatabaseKind === "postgres" && !smoke);

/** The widths every screen is checked at: a desktop, and a phone. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * What every screen must pass at each width: no serious or critical axe-core violation and, on a
 * phone, no horizontal page overflow. `what` names the screen in failures.
 */
export async function expectUsable(page: Page, what: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  expect(await seriousViolations(page), `${what} at ${width} px`).toEqual([]);
  if (width <= PHONE.width)
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      `${what}: no horizontal overflow at ${width} px`,
    ).toBe(true);
}

/**
 * For a `describe` block of browser tests: the real app, on a database of the project's kind, served
 * at the origin the browser reaches (its public URL, which same-origin checks compare), with its first
 * start's owner, who has `OWNER_PASSWORD`. `owner()` is that first start; `api(path, init)` calls the
 * API with the owner's token.
 */
export function servedApp() {
  let database: TestDatabase;
  let app: QuireApp;
  let owner: FirstRun | undefined;
  const browser = inBrowser(() => app);
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${browser.origin()}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${owner?.token}`,
        "content-type": "application/json",
        ...init.headers,
      },
    });
  beforeAll(async () => {
    database = await openTestDatabase();
    await migrate(database.db);
    const clock = new TestClock(new Date().toISOString());
    app = createApp({
      db: database.db,
      clock,
      secretKey: generateSecretKey(),
      publicUrl: browser.origin(),
      validateResponses: true,
    });
    const services = { clock, ids: timeOrderedIds(clock), urls: urlsFor(browser.origin()) };
    owner = await bootstrapOwner(database.db, services, "owner@example.com");
    const set = await api("/v1/user/password", {
      method: "PUT",
      body: JSON.stringify({ newPassword: OWNER_PASSWORD }),
    });
    if (set.status !== 204) throw new Error(`The owner's password was not set: ${set.status}`);
  }, 60_000);
  afterAll(() => database.close());
  /** The API's JSON answer to the owner's request, which must succeed (undefined for an empty answer). */
  const json = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await api(path, init);
    expect(res.status, `${init.method ?? "GET"} ${path}`).toBeLessThan(300);
    return (res.status === 204 || res.status === 205 ? undefined : await res.json()) as T;
  };
  return {
    browser,
    api,
    json,
    /** POSTs `body` as the owner; the answer's JSON. */
    post: <T>(path: string, body: object) => json<T>(path, { method: "POST", body: JSON.stringify(body) }),
    /**
     * A new tab at `path` of the app, signed in as the owner through the sign-in form it is sent to
     * first; back at `path` once signed in. `bypassCSP` (the default) lets axe, a script, run.
     */
    async signIn(
      path = "/app/",
      { viewport = DESKTOP, bypassCSP = true }: { viewport?: typeof DESKTOP; bypassCSP?: boolean } = {},
    ): Promise<Page> {
      const page = await browser.open(path, { viewport, bypassCSP });
      await page.waitForURL(/\/sign-in\?next=/);
      await page.getByRole("textbox", { name: "Email" }).fill("owner@example.com");
      await page.getByLabel("Password").fill(OWNER_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(
        (url) => url.pathname.startsWith("/app/") && !url.pathname.startsWith("/sign-in"),
      );
      return page;
    },
    owner(): FirstRun {
      if (!owner) throw new Error("The app is not served yet: call owner() inside a test or a later hook.");
      return owner;
    },
  };
}
