import type { Schema } from "@quire/api-types";
import { beforeAll, describe, expect, it } from "vitest";
import { appTestsSkipped, DESKTOP, expectUsable, PHONE, servedApp } from "../testing/browser-app.js";

type Page = Schema<"RevisionPage">;

const GUIDE = [
  "Read **this** first.",
  "",
  "## Setup",
  "",
  "See [the install step](./guide/install.md).",
  "",
  "## Wide things",
  "",
  "```",
  `${"a-very-long-line-of-code ".repeat(20)}`,
  "```",
  "",
  `| ${Array.from({ length: 12 }, (_, i) => `Column ${i}`).join(" | ")} |`,
  `| ${Array.from({ length: 12 }, () => "---").join(" | ")} |`,
  `| ${Array.from({ length: 12 }, (_, i) => `value ${i}`).join(" | ")} |`,
  "",
].join("\n");

// In the PostgreSQL smoke set: reading a space's pages through the app.
describe.skipIf(appTestsSkipped({ smoke: true }))("a space in the app, in a browser", () => {
  const served = servedApp();
  const { json: api, post } = served;
  let spaceId = "";
  const spaceUrl = (rest = "") => `/app/spaces/${spaceId}${rest}`;

  beforeAll(async () => {
    const org = served.owner().organizationId;
    spaceId = (await post<Schema<"Space">>(`/v1/orgs/${org}/spaces`, { title: "Handbook" })).id;
    // Pages come through a change request, merged: Guide (Install under it), then FAQ.
    const cr = await post<Schema<"ChangeRequest">>(`/v1/spaces/${spaceId}/change-requests`, {
      subject: "Seed",
    });
    const content = `/v1/spaces/${spaceId}/change-requests/${cr.number}/content`;
    await post(content, {
      changes: [
        { type: "insert_page", title: "Guide", markdown: GUIDE },
        { type: "insert_page", title: "FAQ", markdown: "Ask *anything*." },
      ],
    });
    const { pages } = await api<{ pages: Page[] }>(`${content}/pages`);
    const guide = pages.find((page) => page.title === "Guide")?.id;
    await post(content, {
      changes: [{ type: "insert_page", title: "Install", markdown: "Run it.", parent: guide }],
    });
    await post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/merge`, {});
  }, 60_000);

  it("reads pages: the tree by keyboard, the body, On this page, links between pages and the back button", {
    timeout: 60_000,
  }, async () => {
    const page = await served.signIn(spaceUrl());
    const main = page.getByRole("main");
    // No page path: the first document page.
    await main.getByRole("heading", { level: 1, name: "Guide" }).waitFor();
    expect(await main.getByRole("heading", { level: 1 }).count()).toBe(1);
    await page.evaluate(() => Object.assign(window, { stayed: true }));
    const tree = page.getByRole("tree", { name: "Pages" });
    const guide = tree.getByRole("treeitem", { name: "Guide" });
    expect(await guide.getAttribute("aria-level")).toBe("1");
    await expect.poll(() => guide.getAttribute("aria-expanded")).toBe("false");
    expect(await tree.getByRole("treeitem").count()).toBe(2);
    // The rendered body, with its formatting, and its headings.
    await main.locator(".space-body strong", { hasText: "this" }).waitFor();
    const toc = page.getByRole("navigation", { name: "On this page" });
    await toc.getByRole("link", { name: "Setup" }).waitFor();
    expect(await toc.getByRole("link", { name: "Setup" }).getAttribute("href")).toBe("#setup");
    await expectUsable(page, "a page of the space");

    // The keyboard: one tab stop, Right opens Guide, Down to Install, Enter opens it.
    await guide.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => guide.getAttribute("aria-expanded")).toBe("true");
    const install = tree.getByRole("treeitem", { name: "Install" });
    expect(await install.getAttribute("aria-level")).toBe("2");
    expect(await install.getAttribute("tabindex")).toBe("-1");
    await page.keyboard.press("ArrowDown");
    expect(await install.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("End");
    expect(
      await tree.getByRole("treeitem", { name: "FAQ" }).evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/guide\/install$/);
    await main.getByRole("heading", { level: 1, name: "Install" }).waitFor();
    await page.goBack();
    await main.getByRole("heading", { level: 1, name: "Guide" }).waitFor();

    // A link between pages stays in the app.
    await main.getByRole("link", { name: "the install step" }).click();
    await page.waitForURL(/\/app\/spaces\/[^/]+\/guide\/install$/);
    await main.getByRole("heading", { level: 1, name: "Install" }).waitFor();
    expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true);

    // A path that names no page says so.
    await page.goto(`${served.browser.origin()}${spaceUrl("/nowhere")}`);
    await main.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    await page.context().close();
  });

  it("each view, and the reading view, is usable on desktop and phone", { timeout: 120_000 }, async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await served.signIn(spaceUrl(), { viewport });
      const main = page.getByRole("main");
      await main.getByRole("heading", { level: 1, name: "Guide" }).waitFor();
      await main.locator(".space-body strong").waitFor();
      if (viewport === PHONE) {
        // On a phone the Pages tree folds above the page.
        const toggle = main.getByRole("button", { name: "Pages" });
        await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
        await expectUsable(page, "a page, Pages folded");
        await toggle.click();
        await page.getByRole("tree", { name: "Pages" }).waitFor();
      }
      await expectUsable(page, "a page of the space");
      const sections = page.getByRole("navigation", { name: "Space" });
      for (const name of ["Change requests", "Files", "Links", "Git Sync"]) {
        await sections.getByRole("link", { name, exact: true }).click();
        // Each view's title is the screen's h1; its content loaded.
        await main.getByRole("heading", { level: 1, name }).waitFor();
        await page.locator(".loading").first().waitFor({ state: "detached" });
        await expectUsable(page, `the ${name} view`);
      }
      await page.context().close();
    }
  });

  it("lists change requests and creates one, then opens it; searches the space", {
    timeout: 60_000,
  }, async () => {
    const page = await served.signIn(spaceUrl("?view=changes"));
    const main = page.getByRole("main");
    await main.getByRole("link", { name: /#1 Seed/ }).waitFor();
    await main.getByRole("button", { name: "New change request" }).click();
    const dialog = page.getByRole("dialog", { name: "New change request" });
    await expectUsable(page, "the New change request dialog");
    await dialog.getByRole("textbox").fill("Fix the FAQ");
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/change-requests\/2$/);
    await main.getByRole("heading", { level: 1, name: "Fix the FAQ" }).waitFor();
    const cr = await api<Schema<"ChangeRequest">>(`/v1/spaces/${spaceId}/change-requests/2`);
    expect(cr.subject).toBe("Fix the FAQ");

    await page.goto(`${served.browser.origin()}${spaceUrl()}`);
    const search = page.getByRole("search", { name: "Search this space" });
    await search.getByRole("searchbox").fill("anything");
    await search.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/q=anything/);
    await search.getByRole("link", { name: "FAQ" }).click();
    await main.getByRole("heading", { level: 1, name: "FAQ" }).waitFor();
    await page.context().close();
  });

  it("shares the space: Share gives a member a role of their own, read back through the API", {
    timeout: 90_000,
  }, async () => {
    const org = served.owner().organizationId;
    await post(`/v1/orgs/${org}/invites`, { emails: ["grace@example.com"], role: "read" });
    const page = await served.signIn(spaceUrl());
    await page.getByRole("button", { name: "Share" }).click();
    const dialog = page.getByRole("dialog", { name: "Share" });
    await dialog.getByText("No one has a role of their own here", { exact: false }).waitFor();
    await dialog.getByRole("combobox", { name: "Role to give" }).selectOption("edit");
    await dialog.getByRole("searchbox", { name: "Find a member" }).fill("grace");
    await dialog.getByRole("button", { name: /Give grace.* the role/ }).click();
    await dialog.getByRole("combobox", { name: /Role of grace/ }).waitFor();
    await expectUsable(page, "the Share dialog");
    const granted = await api<{ items: { user: { email: string }; permission: string }[] }>(
      `/v1/spaces/${spaceId}/permissions/users`,
    );
    expect(granted.items.map((item) => [item.user.email, item.permission])).toEqual([
      ["grace@example.com", "edit"],
    ]);
    await page.context().close();
  });
});
