import { beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../testing/browser.js";
import { appTestsSkipped, DESKTOP, expectUsable, PHONE, servedApp } from "../testing/browser-app.js";

// In the PostgreSQL smoke set: signing in, the navigation and creating content through the app.
describe.skipIf(appTestsSkipped({ smoke: true }))("the app's shell, in a browser", () => {
  const served = servedApp();
  const { browser } = served;
  const { json: api, post } = served;

  beforeAll(async () => {
    const org = served.owner().organizationId;
    await post(`/v1/orgs/${org}/collections`, { title: "Engineering" });
    await post(`/v1/orgs/${org}/spaces`, { title: "Handbook" });
  });

  const signedIn = (viewport = DESKTOP, bypassCSP = true) => served.signIn("/app/", { viewport, bypassCSP });

  it("shows the organization's home, its sections, content navigation and search, on desktop and phone", {
    timeout: 90_000,
  }, async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await signedIn(viewport);
      // The home is the organization's own address, which the back button and a deep link come back to.
      await page.waitForURL(/\/app\/orgs\/[^/]+$/);
      await page.getByRole("main").getByRole("heading", { level: 1, name: "My organization" }).waitFor();
      if (viewport === PHONE) {
        // On a phone the navigation is a drawer, behind the Menu button.
        const menu = page.getByRole("button", { name: "Menu" });
        await expect.poll(() => menu.getAttribute("aria-expanded")).toBe("false");
        await expect.poll(() => page.getByRole("navigation", { name: "Content" }).isVisible()).toBe(false);
        await expectUsable(page, "the home, drawer closed");
        await menu.click();
        await expect.poll(() => menu.getAttribute("aria-expanded")).toBe("true");
      }
      const content = page.getByRole("navigation", { name: "Content" });
      await content.getByRole("link", { name: "Engineering" }).waitFor();
      const handbook = content.getByRole("link", { name: "Handbook" });
      expect(new URL((await handbook.getAttribute("href")) ?? "", browser.origin()).pathname).toMatch(
        /^\/app\/spaces\/[^/]+$/,
      );
      const sections = page.getByRole("navigation", { name: "Organization" });
      for (const name of ["Home", "People", "Sites", "Settings"])
        await sections.getByRole("link", { name }).waitFor();
      await page.getByRole("search").getByRole("searchbox", { name: "Search" }).waitFor();
      await expectUsable(page, "the home");
      if (viewport === PHONE) {
        // Following a link closes the drawer.
        await handbook.click();
        await page.waitForURL(/\/app\/spaces\//);
        await expect
          .poll(() => page.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded"))
          .toBe("false");
      }
      await page.context().close();
    }
  });

  it("moves between screens without reloading, with Ctrl-K to search and the back button", {
    timeout: 60_000,
  }, async () => {
    const page = await signedIn();
    await page.waitForURL(/\/app\/orgs\//);
    // A full page load would lose this mark: the app routes in the page.
    await page.evaluate(() => Object.assign(window, { stayed: true }));
    await page.keyboard.press("Control+k");
    const box = page.getByRole("searchbox", { name: "Search" });
    expect(await box.evaluate((el) => el === document.activeElement), "Ctrl-K focuses the search").toBe(true);
    await box.fill("handbook");
    await box.press("Enter");
    await page.waitForURL(/\/app\/orgs\/[^/]+\/search\?q=handbook/);
    await page.goBack();
    await page.waitForURL(/\/app\/orgs\/[^/]+$/);
    await page.getByRole("navigation", { name: "Content" }).getByRole("link", { name: "Handbook" }).click();
    await page.waitForURL(/\/app\/spaces\//);
    expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true);
    await page.context().close();
  });

  it("follows the system's colour scheme, which the Theme switch overrides and remembers", {
    timeout: 60_000,
  }, async () => {
    const page = await signedIn();
    await page.emulateMedia({ colorScheme: "dark" });
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = await background();
    await page.emulateMedia({ colorScheme: "light" });
    const light = await background();
    expect(dark).not.toBe(light);
    const theme = page.getByRole("combobox", { name: "Theme" });
    await theme.selectOption({ label: "Dark" });
    expect(await background()).toBe(dark);
    await expectUsable(page, "the home in the dark theme");
    await page.reload();
    await page.getByRole("main").getByRole("heading", { level: 1 }).waitFor();
    expect(await background(), "the choice outlives a reload").toBe(dark);
    await page.getByRole("combobox", { name: "Theme" }).selectOption({ label: "System" });
    expect(await background()).toBe(light);
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
      await expect.poll(() => dialog.isVisible(), { message: "the dialog closes once created" }).toBe(false);
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
    await page.waitForURL(/\/app\/orgs\//);
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
