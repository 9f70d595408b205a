import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { appTestsSkipped, DESKTOP, expectUsable, PHONE, servedApp } from "../testing/browser-app.js";

interface Item {
  id: string;
  title: string;
  parent?: string;
  deletedAt?: string;
}

describe.skipIf(appTestsSkipped())("the app's content: navigation actions, search, a collection", () => {
  const served = servedApp();
  const { json: api, post } = served;
  const org = () => served.owner().organizationId;
  const ids: Record<string, string> = {};
  let foundPagePath = "";

  beforeAll(async () => {
    for (const title of ["Guides", "Archive", "Library"])
      ids[title] = (await post<Item>(`/v1/orgs/${org()}/collections`, { title })).id;
    for (const [title, parent] of [
      ["Handbook", undefined],
      ["Runbook", ids.Guides],
      ["Catalogue", ids.Library],
      ["Operations", undefined],
    ] as const)
      ids[title] = (await post<Item>(`/v1/orgs/${org()}/spaces`, { title, parent })).id;
    // A page to find: written in a change request, merged into the space's content.
    const spaceId = ids.Operations;
    const cr = await post<{ number: number }>(`/v1/spaces/${spaceId}/change-requests`, {});
    await post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/content`, {
      changes: [
        {
          type: "insert_page",
          title: "Deployment checklist",
          markdown: "Before a release.\n\n## Rolling back\n\nThe zanzibar switch turns the release off.\n",
        },
      ],
    });
    await post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/merge`, {});
    for (let tries = 0; tries < 50 && !foundPagePath; tries++) {
      const found = await api<{ items: { pages: { path: string }[] }[] }>(
        `/v1/orgs/${org()}/search?query=zanzibar`,
      );
      foundPagePath = found.items[0]?.pages[0]?.path ?? "";
      if (!foundPagePath) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(foundPagePath, "the page is found through the API").not.toBe("");
  }, 60_000);

  const item = (kind: "spaces" | "collections", title: string) => api<Item>(`/v1/${kind}/${ids[title]}`);
  const signedIn = (path: string, viewport = DESKTOP) => served.signIn(path, { viewport });
  const contentNav = (page: Page) => page.getByRole("navigation", { name: "Content" });
  const focused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);
  /** A native drag: pressed on `source`, moved, released on `target` (which may show once dragging). */
  const drag = async (page: Page, source: Locator, target: () => Locator) => {
    await source.hover();
    await page.mouse.down();
    const box = await source.boundingBox();
    await page.mouse.move((box?.x ?? 0) + 20, (box?.y ?? 0) + 20, { steps: 4 });
    await target().hover();
    await page.mouse.up();
  };

  it("renames, moves (dialog, keyboard, drag), deletes and restores from the Content navigation", {
    timeout: 120_000,
  }, async () => {
    const page = await signedIn("/app/");
    const nav = contentNav(page);
    await nav.getByRole("link", { name: "Handbook" }).waitFor();

    // The menu button: opens a menu of Rename, Move, Delete; Escape closes it and focus returns.
    const actions = nav.getByRole("button", { name: "Actions for Handbook" });
    expect(await actions.getAttribute("aria-haspopup")).toBe("menu");
    await actions.click();
    const menu = page.getByRole("menu", { name: "Actions for Handbook" });
    expect(await menu.getByRole("menuitem").allTextContents()).toEqual(["Rename", "Move", "Delete"]);
    expect(await focused(menu.getByRole("menuitem", { name: "Rename" }))).toBe(true);
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });
    expect(await focused(actions), "focus back on the menu button").toBe(true);

    // Rename by keyboard: Enter opens the menu on its first item, Enter opens the dialog.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    const rename = page.getByRole("dialog", { name: "Rename “Handbook”" });
    const title = rename.getByRole("textbox", { name: "Title" });
    expect(await focused(title)).toBe(true);
    await title.fill("Staff handbook");
    await page.keyboard.press("Enter");
    await nav.getByRole("link", { name: "Staff handbook" }).waitFor();
    expect(await focused(nav.getByRole("button", { name: "Actions for Staff handbook" }))).toBe(true);
    await expect.poll(async () => (await item("spaces", "Handbook")).title).toBe("Staff handbook");

    // Move by keyboard: the arrows reach Move; the dialog's select chooses the collection.
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await focused(page.getByRole("menuitem", { name: "Move" }))).toBe(true);
    await page.keyboard.press("Enter");
    const move = page.getByRole("dialog", { name: "Move “Staff handbook”" });
    const where = move.getByRole("combobox", { name: "Move to" });
    expect(await focused(where)).toBe(true);
    await where.selectOption({ label: "Guides" });
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await move.waitFor({ state: "hidden" });
    await nav
      .getByRole("listitem")
      .filter({ hasText: "Guides" })
      .getByRole("link", { name: "Staff handbook" })
      .waitFor();
    await expect.poll(async () => (await item("spaces", "Handbook")).parent).toBe(ids.Guides);

    // Drag: a space out to the top level, a collection into another.
    await drag(page, nav.getByRole("link", { name: "Runbook" }), () =>
      nav.getByText("Drop here to move to the top level"),
    );
    await expect.poll(async () => (await item("spaces", "Runbook")).parent).toBeUndefined();
    await drag(page, nav.getByRole("link", { name: "Archive" }), () =>
      nav.getByRole("link", { name: "Guides" }),
    );
    await expect.poll(async () => (await item("collections", "Archive")).parent).toBe(ids.Guides);

    // Delete a space: it goes, with Restore on offer (which brings it back).
    await nav.getByRole("button", { name: "Actions for Staff handbook" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const status = nav.getByRole("status").filter({ hasText: "“Staff handbook” was deleted" });
    await status.waitFor();
    await nav.getByRole("link", { name: "Staff handbook" }).waitFor({ state: "detached" });
    await expect.poll(async () => (await item("spaces", "Handbook")).deletedAt).toBeDefined();
    const restore = status.getByRole("button", { name: "Restore" });
    expect(await focused(restore), "focus on Restore").toBe(true);
    await restore.click();
    await nav.getByRole("link", { name: "Staff handbook" }).waitFor();
    await expect.poll(async () => (await item("spaces", "Handbook")).deletedAt).toBeUndefined();

    // Delete a collection: asked first (it cannot be restored).
    await nav.getByRole("button", { name: "Actions for Archive" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete “Archive”?" });
    await confirm.getByRole("button", { name: "Delete" }).click();
    await nav.getByRole("link", { name: "Archive" }).waitFor({ state: "detached" });
    // Shown at once, deleted once the server answers: read back until it has.
    const titles = async () =>
      (await api<{ items: Item[] }>(`/v1/orgs/${org()}/collections`)).items.map((c) => c.title);
    await expect.poll(titles).not.toContain("Archive");
    await page.context().close();
  });

  it("shows a rename at once, and puts the title back when the server refuses it", {
    timeout: 60_000,
  }, async () => {
    const page = await signedIn("/app/");
    const nav = contentNav(page);
    // The server's answer waits, so the change shown before it is seen.
    await page.route(`**/v1/collections/${ids.Library}`, async (route) => {
      if (route.request().method() === "PATCH") await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    await nav.getByRole("button", { name: "Actions for Library" }).click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    const tooLong = "L".repeat(51); // the contract's CollectionTitle has maxLength 50
    await page
      .getByRole("dialog", { name: "Rename “Library”" })
      .getByRole("textbox", { name: "Title" })
      .fill(tooLong);
    await page.keyboard.press("Enter");
    await nav.getByRole("link", { name: tooLong }).waitFor();
    await nav.getByRole("status").filter({ hasText: "“Library” could not be renamed" }).waitFor();
    await nav.getByRole("alert").filter({ hasText: "Something went wrong" }).waitFor();
    await nav.getByRole("link", { name: "Library", exact: true }).waitFor();
    expect(await nav.getByRole("link", { name: tooLong }).count()).toBe(0);
    expect((await item("collections", "Library")).title).toBe("Library");
    await page.context().close();
  });

  it("keeps the navigation's menu and dialogs usable on desktop and phone", {
    timeout: 120_000,
  }, async () => {
    const page = await signedIn("/app/");
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      if (viewport === PHONE) await page.getByRole("button", { name: "Menu" }).click();
      const nav = contentNav(page);
      const actions = nav.getByRole("button", { name: "Actions for Catalogue" });
      await actions.click();
      await page.getByRole("menu").waitFor();
      await expectUsable(page, "the Content navigation, a menu open");
      for (const [action, dialog] of [
        ["Rename", "Rename “Catalogue”"],
        ["Move", "Move “Catalogue”"],
      ] as const) {
        if (!(await page.getByRole("menu").isVisible())) await actions.click();
        await page.getByRole("menuitem", { name: action }).click();
        await page.getByRole("dialog", { name: dialog }).waitFor();
        await expectUsable(page, `the ${action} dialog`);
        await page.keyboard.press("Escape");
        await page.getByRole("dialog", { name: dialog }).waitFor({ state: "hidden" });
        await expect
          .poll(() => focused(actions), { message: "Escape gives focus back to the menu button" })
          .toBe(true);
      }
    }
    await page.context().close();
  });

  it("finds a page and opens its space at that page, grouped by space, with empty states in words", {
    timeout: 120_000,
  }, async () => {
    const page = await signedIn(`/app/orgs/${org()}/search`);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      if (viewport === PHONE)
        await page.goto(new URL(`/app/orgs/${org()}/search`, served.browser.origin()).toString());
      const main = page.getByRole("main");
      await main.getByRole("heading", { level: 1, name: "Search" }).waitFor();
      await main.getByText("Type words to find them").waitFor();
      await expectUsable(page, "the search screen, no words");
      await main.getByRole("searchbox", { name: "Words to find" }).fill("zanzibar");
      await main.getByRole("button", { name: "Find" }).click();
      await page.waitForURL(/\/search\?q=zanzibar$/);
      await main.getByRole("heading", { level: 2, name: "Operations" }).waitFor();
      const result = main.getByRole("link", { name: "Deployment checklist" });
      await result.waitFor();
      await main.getByText("The zanzibar switch turns the release off.").waitFor();
      await expectUsable(page, "the search results");
      if (viewport === DESKTOP) {
        await result.click();
        await page.waitForURL((url) => url.pathname === `/app/spaces/${ids.Operations}/${foundPagePath}`);
        await page.goBack();
        await page.waitForURL(/\/search\?q=zanzibar$/);
      }
      await main.getByRole("searchbox", { name: "Words to find" }).fill("xylophone");
      await page.keyboard.press("Enter");
      await main.getByText("No page matches “xylophone”.").waitFor();
      await expectUsable(page, "the search screen, nothing found");
    }
    await page.context().close();
  });

  it("shows a collection's spaces and collections, and creates a space inside it", {
    timeout: 120_000,
  }, async () => {
    const page = await signedIn(`/app/collections/${ids.Library}`);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      const main = page.getByRole("main");
      await main.getByRole("heading", { level: 1, name: "Library" }).waitFor();
      const catalogue = main.getByRole("link", { name: "Catalogue" });
      await catalogue.waitFor();
      expect(await catalogue.getAttribute("href")).toBe(`/app/spaces/${ids.Catalogue}`);
      await main.getByText("No collection is in this one.").waitFor();
      await expectUsable(page, "the collection screen");
      if (viewport === PHONE) {
        await main.getByRole("button", { name: "New space" }).click();
        await page.getByRole("dialog", { name: "New space" }).waitFor();
        await expectUsable(page, "the collection's New space dialog");
        await page.keyboard.press("Escape");
      } else {
        await main.getByRole("button", { name: "New space" }).click();
        const dialog = page.getByRole("dialog", { name: "New space" });
        await dialog.getByRole("textbox", { name: "Title" }).fill("Loans");
        await dialog.getByRole("button", { name: "Create" }).click();
        await main.getByRole("link", { name: "Loans" }).waitFor();
        const spaces = await api<{ items: Item[] }>(`/v1/collections/${ids.Library}/spaces`);
        expect(spaces.items.map((s) => s.title).sort()).toEqual(["Catalogue", "Loans"]);
      }
    }
    await page.context().close();
  });
  it("lists the spaces deleted in the last 7 days, and restores them into the navigation", {
    timeout: 120_000,
  }, async () => {
    for (const title of ["Old notes", "Drafts"]) {
      ids[title] = (await post<Item>(`/v1/orgs/${org()}/spaces`, { title })).id;
      await served.json(`/v1/spaces/${ids[title]}`, { method: "DELETE" });
    }
    const page = await signedIn(`/app/orgs/${org()}`);
    const main = page.getByRole("main");
    await contentNav(page).getByRole("link", { name: "Deleted spaces" }).click();
    await page.waitForURL(/\/deleted-spaces$/);
    await main.getByRole("heading", { level: 1, name: "Deleted spaces" }).waitFor();
    const listed = main.getByRole("list", { name: "Deleted spaces" }).getByRole("heading", { level: 3 });
    await expect.poll(() => listed.allTextContents()).toEqual(["Drafts", "Old notes"]);
    await main
      .getByText(/^Deleted .+; can be restored until .+\.$/)
      .first()
      .waitFor();
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await expectUsable(page, "the deleted spaces");
    }
    await page.setViewportSize(DESKTOP);

    await main.getByRole("button", { name: "Restore Drafts" }).click();
    await main.getByRole("status").getByText("“Drafts” is restored").waitFor();
    await contentNav(page).getByRole("link", { name: "Drafts" }).waitFor();
    await expect.poll(() => listed.allTextContents()).toEqual(["Old notes"]);
    expect((await item("spaces", "Drafts")).deletedAt).toBeUndefined();
    await main.getByRole("link", { name: "Open Drafts" }).waitFor();

    await main.getByRole("button", { name: "Restore Old notes" }).click();
    await main.getByText("No space was deleted in the last 7 days.").waitFor();
    expect((await item("spaces", "Old notes")).deletedAt).toBeUndefined();
    await expectUsable(page, "no deleted space");
    await page.context().close();
  });
});
