import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { browserMissing, seriousViolations } from "../testing/browser.js";
import { OWNER_PASSWORD, servedApp } from "../testing/browser-app.js";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

describe.skipIf(browserMissing)("the app's home, in a browser", () => {
  const served = servedApp();
  const { browser } = served;
  const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await served.api(path, init);
    expect(res.status, `${init.method ?? "GET"} ${path}`).toBeLessThan(300);
    return (res.status === 204 ? undefined : await res.json()) as T;
  };

  beforeAll(async () => {
    const org = served.owner().organizationId;
    const post = (path: string, body: object) => api(path, { method: "POST", body: JSON.stringify(body) });
    await post(`/v1/orgs/${org}/collections`, { title: "Engineering" });
    await post(`/v1/orgs/${org}/spaces`, { title: "Handbook" });
  });

  /** Signs in through the form from /app/ (which sends a visitor there first), and lands back on it. */
  async function signedIn(viewport: { width: number; height: number }, bypassCSP = true): Promise<Page> {
    // axe is a script the app's policy refuses: those contexts bypass the policy, which is checked below.
    const page = await browser.open("/app/", { viewport, bypassCSP });
    await page.waitForURL(/\/sign-in\?next=/);
    await page.getByRole("textbox", { name: "Email" }).fill("owner@example.com");
    await page.getByLabel("Password").fill(OWNER_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.pathname === "/app/");
    return page;
  }

  it("shows the organization's content navigation, search and title, accessible on desktop and phone", {
    timeout: 90_000,
  }, async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await signedIn(viewport);
      const content = page.getByRole("navigation", { name: "Content" });
      await content.getByRole("link", { name: "Engineering" }).waitFor();
      const handbook = content.getByRole("link", { name: "Handbook" });
      await handbook.waitFor();
      expect(new URL((await handbook.getAttribute("href")) ?? "").pathname).toMatch(/^\/app\/spaces\/[^/]+$/);
      const search = page.getByRole("search");
      await search.getByRole("searchbox", { name: "Search" }).waitFor();
      await page.getByRole("main").getByRole("heading", { level: 1, name: "My organization" }).waitFor();
      expect(await seriousViolations(page), `${viewport.width} px`).toEqual([]);
      if (viewport === PHONE)
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
          "no horizontal overflow at 390 px",
        ).toBe(true);
      await page.context().close();
    }
  });

  it("opens a space's preview from the navigation, and searches through the search box", {
    timeout: 60_000,
  }, async () => {
    const page = await signedIn(DESKTOP);
    await page.getByRole("searchbox", { name: "Search" }).fill("handbook");
    await page.getByRole("searchbox", { name: "Search" }).press("Enter");
    await page.waitForURL(/\/app\/orgs\/[^/]+\/search\?q=handbook/);
    await page.goBack();
    await page.getByRole("navigation", { name: "Content" }).getByRole("link", { name: "Handbook" }).click();
    await page.waitForURL(/\/app\/spaces\//);
    await page.getByRole("heading", { name: "Handbook" }).first().waitFor();
    await page.context().close();
  });

  it("creates a collection and a space from their dialogs, which then show in the navigation", {
    timeout: 60_000,
  }, async () => {
    const page = await signedIn(DESKTOP);
    const content = page.getByRole("navigation", { name: "Content" });
    await content.getByRole("link", { name: "Engineering" }).waitFor();
    for (const [button, title] of [
      ["New collection", "Design reviews"],
      ["New space", "Onboarding notes"],
    ] as const) {
      await page.getByRole("button", { name: button }).click();
      const dialog = page.getByRole("dialog", { name: button });
      const field = dialog.getByRole("textbox", { name: "Title" });
      await field.waitFor();
      expect(await field.evaluate((el) => el === document.activeElement), "focus on the title").toBe(true);
      await dialog.getByRole("button", { name: "Create" }).click();
      await dialog.getByRole("alert").filter({ hasText: "Enter a title." }).waitFor();
      if (button === "New collection") {
        expect(await seriousViolations(page), "dialog open").toEqual([]);
        await field.fill("x".repeat(60)); // longer than the contract allows: the server's 400, in words
        await dialog.getByRole("button", { name: "Create" }).click();
        const refused = dialog.getByRole("alert").filter({ hasText: "Something went wrong" });
        await refused.waitFor();
        expect(await refused.textContent()).not.toContain("{");
      }
      await field.fill(title);
      await dialog.getByRole("button", { name: "Create" }).click();
      await content.getByRole("link", { name: title }).waitFor();
      expect(await dialog.isVisible(), "the dialog closes once created").toBe(false);
    }
    await page.getByRole("button", { name: "New space" }).click();
    await page.getByRole("dialog", { name: "New space" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog", { name: "New space" }).waitFor({ state: "hidden" });

    const org = served.owner().organizationId;
    const titles = async (kind: string) =>
      (await api<{ items: { title: string }[] }>(`/v1/orgs/${org}/${kind}`)).items.map((item) => item.title);
    expect(await titles("collections")).toContain("Design reviews");
    expect(await titles("spaces")).toContain("Onboarding notes");
    await page.context().close();
  });

  it("is served under a policy with nothing inline, which it runs under, its assets cached for good", async () => {
    const page = await signedIn(DESKTOP, false);
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.reload();
    await page.getByRole("navigation", { name: "Content" }).getByRole("link", { name: "Handbook" }).waitFor();
    expect(refused).toEqual([]);
    const cookies = await page.context().cookies();
    const cookie = cookies.map(({ name, value }) => `${name}=${value}`).join("; ");
    const res = await fetch(`${browser.origin()}/app/`, { headers: { cookie }, redirect: "manual" });
    expect(res.status).toBe(200);
    const policy = res.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("unsafe-inline");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(await res.text())?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${browser.origin()}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    await page.context().close();
  });
});
