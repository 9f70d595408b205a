import type { Schema } from "@quire/api-types";
import { beforeAll, describe, expect, it } from "vitest";
import { appTestsSkipped, DESKTOP, expectUsable, PHONE, servedApp } from "../testing/browser-app.js";

type Page = Schema<"RevisionPage">;

const flatten = (pages: readonly Page[]): Page[] =>
  pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

describe.skipIf(appTestsSkipped())("a change request in the app, in a browser", () => {
  const served = servedApp();
  const { json: api, post } = served;
  let spaceId = "";
  /** The change request the tests write in: it changes Guide and adds Notes. */
  let cr: Schema<"ChangeRequest">;
  const crApi = (number: number, rest = "") => `/v1/spaces/${spaceId}/change-requests/${number}${rest}`;
  const crUrl = (number: number, rest = "") => `/app/spaces/${spaceId}/change-requests/${number}${rest}`;
  const pagesOf = async (path: string) => flatten((await api<{ pages: Page[] }>(path)).pages);

  beforeAll(async () => {
    const org = served.owner().organizationId;
    spaceId = (await post<Schema<"Space">>(`/v1/orgs/${org}/spaces`, { title: "Handbook" })).id;
    // The main content: Guide (Install under it) and FAQ, merged from a first change request.
    const seed = await post<Schema<"ChangeRequest">>(`/v1/spaces/${spaceId}/change-requests`, {
      subject: "Seed",
    });
    await post(crApi(seed.number, "/content"), {
      changes: [
        { type: "insert_page", title: "Guide", markdown: "Read this first." },
        { type: "insert_page", title: "FAQ", markdown: "Ask *anything*." },
      ],
    });
    const guide = (await pagesOf(crApi(seed.number, "/content/pages"))).find(
      (page) => page.title === "Guide",
    );
    await post(crApi(seed.number, "/content"), {
      changes: [{ type: "insert_page", title: "Install", markdown: "Run it.", parent: guide?.id }],
    });
    await post(crApi(seed.number, "/merge"), {});

    cr = await post<Schema<"ChangeRequest">>(`/v1/spaces/${spaceId}/change-requests`, {
      subject: "Rewrite the guide",
    });
    await post(crApi(cr.number, "/content"), {
      changes: [
        { type: "update_page", page: guide?.id, markdown: "Read **this** first, then `install`." },
        { type: "insert_page", title: "Notes", markdown: "Some notes." },
      ],
    });
    const comment = await post<Schema<"Comment">>(crApi(cr.number, "/comments"), {
      body: { markdown: "Is this right about llamas?" },
    });
    await post(crApi(cr.number, `/comments/${comment.id}/replies`), {
      body: { markdown: "Yes, quite right." },
    });
  }, 60_000);

  it("opens from the space's Change requests: its heading, state, Pages, the page, Changes and comments", {
    timeout: 60_000,
  }, async () => {
    const page = await served.signIn(`/app/spaces/${spaceId}?view=changes`);
    const main = page.getByRole("main");
    await main.getByRole("link", { name: /#2 Rewrite the guide/ }).waitFor();
    // The editor is a chunk of its own, loaded only by the change request's screen.
    const editorChunks = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .map((entry) => new URL(entry.name).pathname)
          .filter((path) => /\/PageEditor-[\w-]+\.js$/.test(path)),
      );
    expect(await editorChunks()).toEqual([]);
    await main.getByRole("link", { name: /#2 Rewrite the guide/ }).click();
    await page.waitForURL((url) => url.pathname === crUrl(cr.number));
    await main.getByRole("heading", { level: 1, name: "Rewrite the guide" }).waitFor();
    expect(await main.getByRole("heading", { level: 1 }).count()).toBe(1);
    await main.getByText("Draft", { exact: true }).waitFor();
    await main.getByText(`by ${cr.createdBy.displayName}, changed`, { exact: false }).waitFor();
    // The first page, in the editor: its title, and its body as the change request has it, formatted.
    const tree = page.getByRole("tree", { name: "Pages" });
    for (const name of ["Guide", "FAQ", "Notes"]) await tree.getByRole("treeitem", { name }).waitFor();
    await main.getByRole("heading", { level: 2, name: "Guide" }).waitFor();
    const body = main.getByRole("textbox", { name: "Page content" });
    await body.getByText("first, then").waitFor();
    expect(await body.locator("strong").textContent()).toBe("this");
    expect(await body.locator("code").first().textContent()).toBe("install");
    expect(await editorChunks()).toHaveLength(1);
    await expect
      .poll(() => tree.getByRole("treeitem", { name: "Guide" }).getAttribute("aria-current"))
      .toBe("page");
    // What merging it brings, and the comments with their replies.
    const changes = main.getByRole("region", { name: "Changes" });
    await changes.getByRole("listitem").filter({ hasText: "Changed: Guide" }).waitFor();
    await changes.getByRole("listitem").filter({ hasText: "Added: Notes" }).waitFor();
    const comments = main.getByRole("region", { name: "Comments (1)" });
    await comments.getByText("Is this right about llamas?").waitFor();
    await comments.getByRole("list", { name: "Replies" }).getByText("Yes, quite right.").waitFor();
    await expectUsable(page, "a change request");

    // A page of the change request by the tree; a change leads to its page too.
    await tree.getByRole("treeitem", { name: "FAQ" }).click();
    await page.waitForURL((url) => url.pathname === crUrl(cr.number, "/faq"));
    await main.getByRole("heading", { level: 2, name: "FAQ" }).waitFor();
    await changes.getByRole("link", { name: "Notes" }).click();
    await page.waitForURL((url) => url.pathname === crUrl(cr.number, "/notes"));
    await main.getByText("Some notes.").waitFor();

    // The space's title leads back to the space.
    await main.getByRole("link", { name: "Handbook" }).click();
    await page.waitForURL((url) => url.pathname === `/app/spaces/${spaceId}`);
    await main.getByRole("heading", { level: 1, name: "Guide" }).waitFor();
    await page.context().close();
  });

  it("opens at the API's urls.app of the change request and of its pages", { timeout: 60_000 }, async () => {
    const read = await api<Schema<"ChangeRequest">>(crApi(cr.number));
    const page = await served.signIn(new URL(read.urls.app).pathname);
    const main = page.getByRole("main");
    await main.getByRole("heading", { level: 1, name: "Rewrite the guide" }).waitFor();
    const notes = (await pagesOf(crApi(cr.number, "/content/pages"))).find((p) => p.title === "Notes");
    expect(notes?.urls?.app).toBeDefined();
    await page.goto(notes?.urls?.app ?? "");
    await main.getByRole("heading", { level: 2, name: "Notes" }).waitFor();
    // A path that names no page says so.
    await page.goto(`${served.browser.origin()}${crUrl(cr.number, "/nowhere")}`);
    await main.getByRole("heading", { level: 2, name: "Page not found" }).waitFor();
    await page.context().close();
  });

  it("adds a page with New page: the dialog, then the page in the tree and the address", {
    timeout: 60_000,
  }, async () => {
    const page = await served.signIn(crUrl(cr.number));
    const main = page.getByRole("main");
    await main.getByRole("heading", { level: 1, name: "Rewrite the guide" }).waitFor();
    await main.getByRole("button", { name: "New page" }).click();
    const dialog = page.getByRole("dialog", { name: "New page" });
    await dialog.getByRole("textbox", { name: "Title" }).fill("Release notes");
    await expectUsable(page, "the New page dialog");
    await dialog.getByRole("button", { name: "Create" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(crUrl(cr.number, "/release-notes"));
    const item = page.getByRole("tree", { name: "Pages" }).getByRole("treeitem", { name: "Release notes" });
    await expect.poll(() => item.getAttribute("aria-current")).toBe("page");
    await main.getByRole("heading", { level: 2, name: "Release notes" }).waitFor();
    const changes = main.getByRole("region", { name: "Changes" });
    await changes.getByRole("listitem").filter({ hasText: "Added: Release notes" }).waitFor();
    const added = (await pagesOf(crApi(cr.number, "/content/pages"))).find(
      (p) => p.title === "Release notes",
    );
    expect(added).toMatchObject({ type: "document", path: "release-notes" });
    await page.context().close();
  });

  it("arranges pages by each one's actions: rename, move, duplicate, properties, move down, drag, delete", {
    timeout: 120_000,
  }, async () => {
    // Its own change request, on the main content: Guide (Install under it) and FAQ, plus Glossary.
    const own = await post<Schema<"ChangeRequest">>(`/v1/spaces/${spaceId}/change-requests`, {
      subject: "Reorganize",
    });
    await post(crApi(own.number, "/content"), {
      changes: [{ type: "insert_page", title: "Glossary", markdown: "Words." }],
    });
    const pagesApi = crApi(own.number, "/content/pages");
    const tops = async () => (await api<{ pages: Page[] }>(pagesApi)).pages;
    const titles = (pages: readonly Page[] | undefined) => (pages ?? []).map((p) => p.title);
    const under = async (title: string) => titles((await tops()).find((p) => p.title === title)?.pages);
    const byTitle = async (title: string) => (await pagesOf(pagesApi)).find((p) => p.title === title);

    const page = await served.signIn(crUrl(own.number));
    const main = page.getByRole("main");
    const tree = page.getByRole("tree", { name: "Pages" });
    await tree.getByRole("treeitem", { name: "FAQ" }).waitFor();
    // A row's actions menu shows beside the row hovered (or focused).
    const actionsFor = async (title: string) => {
      await tree.getByRole("treeitem", { name: title, exact: true }).hover();
      return main.getByRole("button", { name: `Actions for ${title}` });
    };
    const act = async (title: string, action: string) => {
      await (await actionsFor(title)).click();
      await page
        .getByRole("menu", { name: `Actions for ${title}` })
        .getByRole("menuitem", { name: action, exact: true })
        .click();
    };

    // The menu: a document's every action; the last of its siblings cannot go down.
    await (await actionsFor("FAQ")).click();
    const menu = page.getByRole("menu", { name: "Actions for FAQ" });
    expect(await menu.getByRole("menuitem").allTextContents()).toEqual([
      "Rename",
      "Move",
      "Move up",
      "Move down",
      "Duplicate",
      "Properties",
      "Delete",
    ]);
    await expectUsable(page, "a page's actions menu");
    await menu.getByRole("menuitem", { name: "Rename" }).click();
    const rename = page.getByRole("dialog", { name: "Rename “FAQ”" });
    await rename.getByRole("textbox", { name: "Title" }).fill("Questions");
    await expectUsable(page, "the Rename dialog of a page");
    await rename.getByRole("button", { name: "Save" }).click();
    await tree.getByRole("treeitem", { name: "Questions" }).waitFor();
    await expect.poll(async () => titles(await tops())).toEqual(["Guide", "Questions", "Glossary"]);

    // Moved under Guide, first there; the page shown follows it to its new path.
    await tree.getByRole("treeitem", { name: "Questions" }).click();
    await page.waitForURL((url) => url.pathname === crUrl(own.number, "/faq"));
    await act("Questions", "Move");
    const move = page.getByRole("dialog", { name: "Move “Questions”" });
    await move.getByRole("combobox", { name: "Move to" }).selectOption({ label: "Guide" });
    await move.getByRole("combobox", { name: "Position" }).selectOption({ label: "First" });
    await expectUsable(page, "the Move dialog of a page");
    await move.getByRole("button", { name: "Move" }).click();
    await expect.poll(() => under("Guide")).toEqual(["Questions", "Install"]);
    await page.waitForURL((url) => url.pathname === crUrl(own.number, "/guide/faq"));

    // Duplicated: a copy of its body right after it.
    await act("Questions", "Duplicate");
    await expect.poll(() => under("Guide")).toEqual(["Questions", "Questions (copy)", "Install"]);
    const copy = await byTitle("Questions (copy)");
    const markdownOf = async (id: string | undefined) =>
      (await api<Page>(crApi(own.number, `/content/page/${id}?format=markdown`))).markdown ?? "";
    expect(await markdownOf(copy?.id)).toContain("Ask *anything*.");

    // Its properties: a description and hidden, in its front matter.
    await act("Questions", "Properties");
    const properties = page.getByRole("dialog", { name: "Properties of “Questions”" });
    await properties.getByRole("textbox", { name: "Icon" }).fill("book");
    await properties.getByRole("textbox", { name: "Description" }).fill("What people ask");
    await properties.getByRole("checkbox", { name: /Hidden/ }).check();
    await expectUsable(page, "the Properties dialog of a page");
    await properties.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(async () => {
        const read = await byTitle("Questions");
        return { icon: read?.icon, description: read?.description, hidden: read?.hidden };
      })
      .toEqual({ icon: "book", description: "What people ask", hidden: true });
    const questions = await byTitle("Questions");
    const markdown = await markdownOf(questions?.id);
    expect(markdown).toMatch(/^---\n/);
    expect(markdown).toContain("description: What people ask");
    expect(markdown).toContain("hidden: true");
    expect(markdown).toContain("Ask *anything*.");
    // The dialog shows what it keeps when opened again.
    await act("Questions", "Properties");
    expect(await properties.getByRole("checkbox", { name: /Hidden/ }).isChecked()).toBe(true);
    await page.keyboard.press("Escape");

    // Move down by the keyboard: the menu button, its menu, Move down.
    // Tab from the tree's focused row reaches its menu.
    await tree.getByRole("treeitem", { name: "Questions", exact: true }).focus();
    await page.keyboard.press("Tab");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe("⋯Actions for Questions");
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Rename");
    // First among its siblings, it has no Move up: Rename, Move, Move down.
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Move down");
    await page.keyboard.press("Enter");
    await expect.poll(() => under("Guide")).toEqual(["Questions (copy)", "Questions", "Install"]);

    // Dragged onto Glossary: Install goes into it.
    await tree
      .getByRole("treeitem", { name: "Install" })
      .dragTo(tree.getByRole("treeitem", { name: "Glossary" }));
    await expect.poll(() => under("Glossary")).toEqual(["Install"]);

    // Deleted, after asking: Guide and the pages under it.
    await act("Guide", "Delete");
    const remove = page.getByRole("dialog", { name: "Delete “Guide”?" });
    await remove.getByText("Its child pages are deleted with it.").waitFor();
    await expectUsable(page, "the Delete dialog of a page");
    await remove.getByRole("button", { name: "Delete" }).click();
    await expect.poll(async () => titles(await pagesOf(pagesApi))).toEqual(["Glossary", "Install"]);
    // The page shown went with it: the change request's first page is shown instead.
    await page.waitForURL((url) => url.pathname === crUrl(own.number));
    await main.getByRole("heading", { level: 2, name: "Glossary" }).waitFor();

    // A refusal is told in words: Install deleted meanwhile through the API, then renamed here.
    await tree.getByRole("treeitem", { name: "Glossary" }).focus();
    await page.keyboard.press("ArrowRight");
    await tree.getByRole("treeitem", { name: "Install" }).waitFor();
    const install = await byTitle("Install");
    await post(crApi(own.number, "/content"), { changes: [{ type: "delete_page", page: install?.id }] });
    await act("Install", "Rename");
    await page
      .getByRole("dialog", { name: "Rename “Install”" })
      .getByRole("textbox", { name: "Title" })
      .fill("Setup");
    await page
      .getByRole("dialog", { name: "Rename “Install”" })
      .getByRole("button", { name: "Save" })
      .click();
    await main.getByText("“Install” could not be changed.").waitFor();
    await main.getByRole("alert").waitFor();
    // The tree is read again: Install is gone.
    await expect.poll(() => tree.getByRole("treeitem", { name: "Install" }).count()).toBe(0);
    expect(titles(await pagesOf(pagesApi))).toEqual(["Glossary"]);
    await page.context().close();
  });

  it("merges with Merge: Merged, a way back to the space, and the pages in its main content", {
    timeout: 60_000,
  }, async () => {
    const page = await served.signIn(crUrl(cr.number));
    const main = page.getByRole("main");
    await main.getByRole("button", { name: "Merge" }).click();
    await main.getByRole("status").filter({ hasText: "Merged into the main content of Handbook." }).waitFor();
    await main.getByText("Merged", { exact: true }).waitFor();
    await expect.poll(() => main.getByRole("button", { name: "Merge" }).count()).toBe(0);
    expect((await api<Schema<"ChangeRequest">>(crApi(cr.number))).status).toBe("merged");
    const mainPages = await pagesOf(`/v1/spaces/${spaceId}/content/pages`);
    expect(mainPages.map((p) => p.title)).toEqual(expect.arrayContaining(["Notes", "Release notes"]));
    await expectUsable(page, "a merged change request");
    await main.getByRole("link", { name: "Open the space" }).click();
    await page.waitForURL((url) => url.pathname === `/app/spaces/${spaceId}`);
    await page
      .getByRole("tree", { name: "Pages" })
      .getByRole("treeitem", { name: "Release notes" })
      .waitFor();
    await page.context().close();
  });

  it("tells a refused merge in words: merged meanwhile elsewhere (409)", { timeout: 60_000 }, async () => {
    const other = await post<Schema<"ChangeRequest">>(`/v1/spaces/${spaceId}/change-requests`, {
      subject: "Merged elsewhere",
    });
    const page = await served.signIn(crUrl(other.number));
    const main = page.getByRole("main");
    const merge = main.getByRole("button", { name: "Merge" });
    await merge.waitFor();
    // Someone merges it through the API while the screen still offers Merge.
    await post(crApi(other.number, "/merge"), {});
    await merge.click();
    const alert = main.getByRole("alert");
    await alert.getByText("The change request is merged already.", { exact: false }).waitFor();
    // The screen reads it again: merged, no Merge any more, the refusal still told.
    await main.getByText("Merged", { exact: true }).waitFor();
    await expect.poll(() => merge.count()).toBe(0);
    expect(await alert.isVisible()).toBe(true);
    expect((await api<Schema<"ChangeRequest">>(crApi(other.number))).status).toBe("merged");
    await page.context().close();
  });

  it("is usable on desktop and phone, the New page dialog too", { timeout: 90_000 }, async () => {
    const open = await post<Schema<"ChangeRequest">>(`/v1/spaces/${spaceId}/change-requests`, {
      subject: "Phone check",
    });
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await served.signIn(crUrl(open.number), { viewport });
      const main = page.getByRole("main");
      await main.getByRole("heading", { level: 1, name: "Phone check" }).waitFor();
      await page.locator(".loading").first().waitFor({ state: "detached" });
      if (viewport === PHONE) {
        // On a phone the Pages tree folds above the page.
        const toggle = main.getByRole("button", { name: "Pages" });
        await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
        await expectUsable(page, "a change request, Pages folded");
        await toggle.click();
        await page.getByRole("tree", { name: "Pages" }).waitFor();
      }
      await expectUsable(page, "a change request");
      await main.getByRole("button", { name: "New page" }).click();
      await page.getByRole("dialog", { name: "New page" }).getByRole("textbox", { name: "Title" }).waitFor();
      await expectUsable(page, "the New page dialog");
      await page.keyboard.press("Escape");
      await page.context().close();
    }
  });
});
