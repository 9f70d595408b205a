import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FirstRun } from "../bootstrap.js";
import { browserMissing, seriousViolations } from "../testing/browser.js";
import { OWNER_PASSWORD, servedApp } from "../testing/browser-app.js";

const PHONE = { width: 390, height: 844 };

describe.skipIf(browserMissing)("signing in, in a browser", () => {
  const { browser, api, owner: ownerOf } = servedApp();
  let owner: FirstRun;
  /** A page of another origin of this machine (same site, other port), as an attacker's would be. */
  let elsewhere: Server;
  let elsewhereOrigin = "";
  const collections = async () =>
    (
      (await (await api(`/v1/orgs/${owner.organizationId}/collections`)).json()) as {
        items: { title: string }[];
      }
    ).items;

  beforeAll(async () => {
    owner = ownerOf();
    const target = `${browser.origin()}/v1/orgs/${owner.organizationId}/collections`;
    // A form and a script that write with whatever cookie the browser holds for Quire.
    elsewhere = createServer((_req, res) => {
      res.setHeader("content-type", "text/html");
      res.end(`<!doctype html><html lang="en"><title>Elsewhere</title>
<form method="post" action="${target}" enctype="text/plain"><input name='{"title":"Planted by a form","x":"' value='"}'><button>Send</button></form>
<form method="post" action="${browser.origin()}/sign-out"><button>Sign them out</button></form></html>`);
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    elsewhereOrigin = `http://127.0.0.1:${(elsewhere.address() as { port: number }).port}`;
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => elsewhere.close(resolve));
  });

  it("sends a visitor signed out to sign in, and back to where they were going", {
    timeout: 60_000,
  }, async () => {
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      const page = await browser.open(`/app/orgs/${owner.organizationId}`, { viewport, bypassCSP: true });
      await page.waitForURL(/\/sign-in\?next=/);
      expect(await seriousViolations(page), `${viewport.width} px`).toEqual([]);
      await page.getByRole("textbox", { name: "Email" }).fill("owner@example.com");
      await page.getByLabel("Password").fill(OWNER_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`**/app/orgs/${owner.organizationId}`);
      await page.getByRole("heading", { name: "My organization" }).waitFor();
      await page.context().close();
    }
  });

  it("opens the app signed in as the owner from the URL the first start prints", {
    timeout: 60_000,
  }, async () => {
    const page = await browser.open(new URL(owner.signInUrl).pathname, { viewport: PHONE });
    await page.getByText("This link signs you in as owner@example.com.").waitFor();
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/app/");
    // On a phone, who is signed in is in the header's part that Menu opens; once the app has gone on
    // to the organization's home (a change of address closes the drawer).
    await page.waitForURL(/\/app\/orgs\/[^/]+$/);
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByText("Signed in as Owner").waitFor();
    await page.context().close();
  });

  it("tells a wrong password without saying whether the email exists", { timeout: 60_000 }, async () => {
    const page = await browser.open("/sign-in");
    await page.getByRole("textbox", { name: "Email" }).fill("owner@example.com");
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "That email and password do not match an account." })
      .waitFor();
    await page.context().close();
  });

  it("refuses what another origin's page sends with the person's cookie, and creates nothing", {
    timeout: 60_000,
  }, async () => {
    const page = await browser.open("/sign-in");
    await page.getByRole("textbox", { name: "Email" }).fill("owner@example.com");
    await page.getByLabel("Password").fill(OWNER_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/app/");
    // Quire's own page writes: the cookie, and the header only its pages send.
    const own = await page.evaluate(async (path) => {
      const res = await fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json", "x-quire-csrf": "1" },
        body: JSON.stringify({ title: "Made by Quire's page" }),
      });
      return res.status;
    }, `/v1/orgs/${owner.organizationId}/collections`);
    expect(own).toBe(201);

    await page.goto(elsewhereOrigin);
    // A script of the other origin: a simple request carries the cookie, one with the header is stopped at preflight.
    const attempts = await page.evaluate(async (target) => {
      const simple = await fetch(target, {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify({ title: "Planted by a script" }),
      }).then(
        (res) => res.status,
        () => "blocked",
      );
      const withHeader = await fetch(target, {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json", "x-quire-csrf": "1" },
        body: JSON.stringify({ title: "Planted with the header" }),
      }).then(
        (res) => res.status,
        () => "blocked",
      );
      return { simple, withHeader };
    }, `${browser.origin()}/v1/orgs/${owner.organizationId}/collections`);
    // The simple request reaches the server, which refuses it (the answer is hidden from the script).
    expect(["blocked", 403]).toContain(attempts.simple);
    expect(attempts.withHeader).toBe("blocked");
    await page.getByRole("button", { name: "Send" }).click();
    await page.waitForLoadState();
    expect(await page.content()).toContain("403");
    await page.goto(elsewhereOrigin);
    await page.getByRole("button", { name: "Sign them out" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "This form must be sent from this server's own pages." })
      .waitFor();

    const titles = (await collections()).map((c) => c.title);
    expect(titles).toEqual(["Made by Quire's page"]);
    // Still signed in: the other page's sign-out did nothing.
    const status = await page.evaluate(async () => (await fetch("/v1/user")).status);
    expect(status).toBe(200);
    await page.context().close();
  });
});
