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
