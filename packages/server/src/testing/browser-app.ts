import { afterAll, beforeAll } from "vitest";
import { createApp, type QuireApp } from "../app.js";
import { generateSecretKey } from "../auth/secret-key.js";
import { bootstrapOwner, type FirstRun } from "../bootstrap.js";
import { timeOrderedIds } from "../context.js";
import { migrate } from "../db/database.js";
import { urlsFor } from "../urls.js";
import { inBrowser } from "./browser.js";
import { openTestDatabase, type TestDatabase } from "./database.js";
import { TestClock } from "./harness.js";

/** The password `signedInApp` gives the owner. */
export const OWNER_PASSWORD = "a password of the owner";

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
  return {
    browser,
    api,
    owner(): FirstRun {
      if (!owner) throw new Error("The app is not served yet: call owner() inside a test or a later hook.");
      return owner;
    },
  };
}
