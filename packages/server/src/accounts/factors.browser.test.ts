import { createServer, type Server } from "node:http";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { generateSecretKey } from "../auth/secret-key.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { type Db, migrate } from "../db/database.js";
import { browserMissing, seriousViolations } from "../testing/browser.js";
import { openTestDatabase } from "../testing/database.js";
import { createUser } from "../users/store.js";
import { hashPassword } from "./passwords.js";
import { storePassword } from "./store.js";

const PASSWORD = "correct horse battery";
const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/**
 * Passkeys in Chromium, with its virtual authenticator. WebAuthn needs a secure context and a domain
 * for its relying party, so the server is reached as http://localhost:<port>, its public URL: what
 * `inBrowser` (127.0.0.1, and an app made before the port is known) cannot give. One server and one
 * browser for the file.
 */
describe.skipIf(browserMissing)("second factors in a browser", () => {
  let server: Server;
  let browser: Browser;
  let db: Db;
  let origin = "";
  let closeDatabase = async () => {};
  const services = { clock: systemClock, ids: timeOrderedIds() };

  beforeAll(async () => {
    const database = await openTestDatabase();
    ({ db } = database);
    closeDatabase = () => database.close();
    await migrate(db);
    let app: ReturnType<typeof createApp> | undefined;
    server = createServer((req, res) => app?.(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://localhost:${(server.address() as { port: number }).port}`;
    app = createApp({ db, ...services, secretKey: generateSecretKey(), publicUrl: origin });
    browser = await chromium.launch({
      executablePath: process.env.QUIRE_CHROMIUM ?? "/usr/bin/chromium",
      // localhost is the server on 127.0.0.1, whatever the machine's resolver says of ::1.
      args: ["--no-sandbox", "--host-resolver-rules=MAP localhost 127.0.0.1"],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await closeDatabase();
  });

  let counter = 0;
  /** A person with a password and no factor yet. */
  async function person(): Promise<string> {
    counter += 1;
    const user = await createUser(db, services, { email: `pat${counter}@example.com`, displayName: "Pat" });
    await storePassword(db, user.id, await hashPassword(PASSWORD), new Date());
    return user.email;
  }

  async function open(path: string, options: BrowserContextOptions = {}): Promise<Page> {
    const page = await browser.newPage(options);
    await page.goto(`${origin}${path}`);
    return page;
  }

  /** Adds Chromium's virtual authenticator to the page: a platform one, as a phone or laptop has. */
  async function addAuthenticator(page: Page): Promise<void> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
  }

  async function signInWithPassword(page: Page, email: string, next = "/account/security"): Promise<void> {
    await page.goto(`${origin}/sign-in?next=${encodeURIComponent(next)}`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
  }

  it("adds a passkey on the security page, then signs in with the password and the passkey", async () => {
    const email = await person();
    const page = await open("/sign-in");
    await addAuthenticator(page);
    await signInWithPassword(page, email);
    await page.waitForURL(`${origin}/account/security`);
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect.poll(() => page.getByText("Passkey (passkey)").count(), { timeout: 10_000 }).toBe(1);

    await page.context().clearCookies();
    await signInWithPassword(page, email);
    await page.waitForURL(`${origin}/sign-in/second-factor`);
    await expect.poll(() => page.getByLabel("Code").count()).toBe(1);
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.waitForURL(`${origin}/account/security`, { timeout: 10_000 });
    expect(await page.getByRole("heading", { name: "Security", level: 1 }).count()).toBe(1);
    await page.context().close();
  }, 60_000);

  for (const [width, viewport] of Object.entries(WIDTHS))
    it(`has no serious accessibility violations on the sign-in, second-factor and security pages (${width})`, async () => {
      const email = await person();
      const page = await open("/sign-in", { viewport, bypassCSP: true });
      expect(await seriousViolations(page)).toEqual([]);
      await signInWithPassword(page, email);
      await page.waitForURL(`${origin}/account/security`);
      expect(await seriousViolations(page)).toEqual([]);
      // Nothing wider than the screen: the page works on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      // An authenticator app on: the next sign-in asks for its code.
      const secret = (await page.locator("code").first().textContent()) as string;
      const { Secret, TOTP } = await import("otpauth");
      await page.getByLabel("Code").fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
      await page.getByRole("button", { name: "Turn on" }).click();
      await expect
        .poll(() => page.getByText("Keep these codes somewhere safe", { exact: false }).count())
        .toBe(1);
      await page.context().clearCookies();
      await signInWithPassword(page, email);
      await page.waitForURL(`${origin}/sign-in/second-factor`);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await page.context().close();
    }, 60_000);
});
