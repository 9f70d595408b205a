import type { Schema } from "@quire/api-types";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { appTestsSkipped, DESKTOP, expectUsable, PHONE, servedApp } from "../testing/browser-app.js";

/** A page whose Markdown has what a rewrite would change: spacing, a list, a hint, code. */
const BODY = [
  "Keep   *this*  spacing.",
  "",
  "* one",
  "* two",
  "",
  '{% hint style="warning" %}',
  "Mind the gap.",
  "{% endhint %}",
  "",
  "```js",
  "const answer = 42;",
  "```",
  "",
  "Last words.",
  "",
].join("\n");

// In the PostgreSQL smoke set: writing a page and saving it through the server.
describe.skipIf(appTestsSkipped({ smoke: true }))("the page editor, in a browser", () => {
  const served = servedApp();
  const { json: api, post } = served;
  let spaceId = "";

  beforeAll(async () => {
    const org = served.owner().organizationId;
    spaceId = (await post<Schema<"Space">>(`/v1/orgs/${org}/spaces`, { title: "Handbook" })).id;
    const seed = await post<Schema<"ChangeRequest">>(`/v1/spaces/${spaceId}/change-requests`, {});
    await post(`/v1/spaces/${spaceId}/change-requests/${seed.number}/content`, {
      changes: [{ type: "insert_page", title: "Guide", markdown: BODY }],
    });
    await post(`/v1/spaces/${spaceId}/change-requests/${seed.number}/merge`, {});
  }, 60_000);

  /** What the server stores follows a pause in typing, then a save: read it back for up to 15 s. */
  const stored = (read: () => Promise<string>) => expect.poll(read, { timeout: 15_000 });
  /** A new change request, and the Markdown of its one page as the server holds it. */
  const changeRequest = async () => {
    const cr = await post<Schema<"ChangeRequest">>(`/v1/spaces/${spaceId}/change-requests`, {});
    const content = `/v1/spaces/${spaceId}/change-requests/${cr.number}/content`;
    const markdown = async () => {
      const { pages } = await api<{ pages: Schema<"RevisionPage">[] }>(`${content}/pages`);
      const page = await api<{ markdown: string }>(`${content}/page/${pages[0]?.id}?format=markdown`);
      return page.markdown;
    };
    return { url: `/app/spaces/${spaceId}/change-requests/${cr.number}/guide`, markdown };
  };
  const surface = (page: Page) => page.getByRole("textbox", { name: "Page content" });
  const saved = (page: Page) =>
    page
      .getByRole("status")
      .filter({ hasText: /^Saved$/ })
      .waitFor();
  /** The caret at the end of the block holding `text`. */
  const endOf = async (page: Page, text: string) => {
    await surface(page).getByText(text).click();
    await page.keyboard.press("End");
  };

  it("changes exactly the lines typed into, and formats with keys and Markdown's shortcuts", {
    timeout: 90_000,
  }, async () => {
    const { url, markdown } = await changeRequest();
    const page = await served.signIn(url, { viewport: DESKTOP });
    await surface(page).waitFor();
    await saved(page);
    await expectUsable(page, "the editor");

    await endOf(page, "Last words.");
    await page.keyboard.type(" And more.");
    await page
      .getByRole("status")
      .filter({ hasText: /Not saved yet|Saving…/ })
      .first()
      .waitFor();
    await saved(page);
    await stored(markdown).toBe(BODY.replace("Last words.", "Last words. And more."));

    // Bold by the keyboard, then a heading by Markdown's `## `.
    await page.keyboard.press("Enter");
    await page.keyboard.type("## Next steps");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Control+b");
    await page.keyboard.type("Bold start");
    await stored(markdown).toBe(
      `${BODY.replace("Last words.", "Last words. And more.")}\n## Next steps\n\n**Bold start**\n`,
    );
    await saved(page);
    // What was never typed into is as it was, byte for byte.
    expect((await markdown()).startsWith(BODY.slice(0, BODY.indexOf("Last words.")))).toBe(true);

    // Undo takes the last typing back, and that is saved too.
    await page.keyboard.press("Control+z");
    await stored(markdown).not.toContain("Bold start");
    await page.context().close();
  });

  it("inserts GitBook's blocks from the slash menu, written as GitBook's Markdown", {
    timeout: 90_000,
  }, async () => {
    const { url, markdown } = await changeRequest();
    const page = await served.signIn(url, { viewport: DESKTOP });
    await surface(page).waitFor();
    await endOf(page, "Last words.");
    await page.keyboard.press("Enter");
    await page.keyboard.type("/tab");
    const menu = page.getByRole("listbox", { name: "Insert a block" });
    await menu.getByRole("option", { name: "Tabs", selected: true }).waitFor();
    await expectUsable(page, "the slash menu");
    await page.keyboard.press("Enter");
    await page.keyboard.type("In a tab.");
    await saved(page);
    await stored(markdown).toContain(
      '{% tabs %}\n{% tab title="Tab 1" %}\nIn a tab.\n{% endtab %}\n{% endtabs %}',
    );
    // Below the tabs, a hint from its option, by a click.
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("/hi");
    await menu.getByRole("option", { name: "Hint" }).click();
    await page.keyboard.type("Careful.");
    await saved(page);
    await stored(markdown).toContain('{% hint style="info" %}\nCareful.\n{% endhint %}');
    expect((await markdown()).startsWith(BODY.slice(0, BODY.indexOf("Last words.")))).toBe(true);
    await page.context().close();
  });

  it("keeps the structure of pasted HTML: headings, lists, links and emphasis", {
    timeout: 90_000,
  }, async () => {
    const { url, markdown } = await changeRequest();
    const page = await served.signIn(url, { viewport: DESKTOP });
    await surface(page).waitFor();
    await endOf(page, "Last words.");
    await page.keyboard.press("Enter");
    // What a browser puts on the clipboard when copying from a web page.
    await surface(page).evaluate((editor) => {
      const data = new DataTransfer();
      data.setData(
        "text/html",
        '<h1>Pasted title</h1><p>Some <strong>bold</strong> and <a href="https://example.com/">a link</a>.</p><ul><li>first</li><li>second</li></ul>',
      );
      editor.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    });
    await saved(page);
    await stored(markdown).toContain(
      "# Pasted title\n\nSome **bold** and [a link](https://example.com/).\n\n* first\n* second\n",
    );
    await page.context().close();
  });

  it("links the selected text to an address or to a page of the change request", {
    timeout: 90_000,
  }, async () => {
    const { url, markdown } = await changeRequest();
    const page = await served.signIn(url, { viewport: DESKTOP });
    await surface(page).waitFor();
    const link = async (text: string, fill: (dialog: ReturnType<Page["getByRole"]>) => Promise<void>) => {
      await endOf(page, text);
      await page.keyboard.press("Shift+Home");
      await page.getByRole("button", { name: "Link" }).click();
      const dialog = page.getByRole("dialog", { name: "Link" });
      await fill(dialog);
      await dialog.getByRole("button", { name: "Apply" }).click();
      await dialog.waitFor({ state: "hidden" });
      await saved(page);
    };
    await link("Last words.", async (dialog) => {
      await expectUsable(page, "the Link dialog");
      await dialog.getByRole("textbox", { name: "Address" }).fill("https://example.com/docs");
    });
    await stored(markdown).toContain("[Last words.](https://example.com/docs)");
    await link("Mind the gap.", async (dialog) => {
      await dialog.getByRole("radio", { name: "Page" }).check();
      await dialog.getByRole("combobox", { name: "Page" }).selectOption({ label: "Guide" });
    });
    // A page of the content by its id, as Quire stores links between pages (Git Sync writes its file).
    await stored(markdown).toMatch(/\[Mind the gap\.\]\(\/pages\/\w+\)/);
    await page.context().close();
  });

  it("merges two tabs' edits of different blocks; the same block asks which to keep", {
    timeout: 90_000,
  }, async () => {
    const { url, markdown } = await changeRequest();
    const first = await served.signIn(url, { viewport: DESKTOP });
    const second = await served.signIn(url, { viewport: DESKTOP });
    for (const tab of [first, second]) await saved(tab);

    await endOf(first, "Last words.");
    await first.keyboard.type(" First tab.");
    await saved(first);
    await endOf(second, "Mind the gap.");
    await second.keyboard.type(" Second tab.");
    await saved(second);
    const merged = await markdown();
    expect(merged).toContain("Mind the gap. Second tab.");
    expect(merged).toContain("Last words. First tab.");
    // The second tab shows the first's edit too, merged into what it holds.
    await surface(second).getByText("Last words. First tab.").waitFor();

    // Both change one block: the later one is told, and chooses.
    await endOf(first, "Keep");
    await first.keyboard.type(" Mine.");
    await saved(first);
    await endOf(second, "Keep");
    await second.keyboard.type(" Theirs.");
    const conflict = second.getByRole("status").filter({ hasText: "Someone else changed the same part" });
    await conflict.waitFor();
    await expectUsable(second, "the editor's conflict");
    expect(await markdown(), "nothing written over the other's edit").toContain("spacing. Mine.");
    await second.getByRole("button", { name: "Keep mine" }).click();
    await saved(second);
    await stored(markdown).toContain("spacing. Theirs.");
    for (const tab of [first, second]) await tab.context().close();
  });

  it("switches to the Markdown source and back, saving the body as typed", { timeout: 90_000 }, async () => {
    const { url, markdown } = await changeRequest();
    const page = await served.signIn(url, { viewport: DESKTOP });
    await surface(page).waitFor();
    const toggle = page.getByRole("button", { name: "Markdown" });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("true");
    const source = page.getByRole("textbox", { name: "Markdown source" });
    await source.getByText("Keep   *this*  spacing.").waitFor();
    await expectUsable(page, "the Markdown source");
    await source.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("Typed   as *is*.\n");
    await saved(page);
    await stored(markdown).toBe(`${BODY}Typed   as *is*.\n`);
    // Back to the blocks: the page as stored, the typed paragraph formatted.
    await toggle.click();
    await surface(page).locator("em", { hasText: "is" }).waitFor();
    await page.context().close();
  });

  it("uploads an image from Add image into the change request and shows it in the page", {
    timeout: 90_000,
  }, async () => {
    const { url, markdown } = await changeRequest();
    const page = await served.signIn(url, { viewport: DESKTOP });
    await surface(page).waitFor();
    await endOf(page, "Last words.");
    // A 1×1 PNG.
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: png });
    await page.getByRole("status").filter({ hasText: "dot.png is in the page." }).waitFor();
    const image = surface(page).getByRole("img", { name: "dot.png" });
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    await saved(page);
    await stored(markdown).toMatch(/<img src="[^"]+" alt="dot\.png">/);
    await page.context().close();
  });

  it("is usable on a phone, without a page wider than the screen", {
    timeout: 60_000,
  }, async () => {
    const { url } = await changeRequest();
    const page = await served.signIn(url, { viewport: PHONE });
    await surface(page).waitFor();
    await saved(page);
    await expectUsable(page, "the editor on a phone");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await page.context().close();
  });

  // Last: it merges into the main content the other tests start from.
  it("edits a live space's page from the space: Edit opens a change request there, Merge brings the line to main", {
    timeout: 90_000,
  }, async () => {
    const page = await served.signIn(`/app/spaces/${spaceId}/guide`, { viewport: DESKTOP });
    const main = page.getByRole("main");
    await main.getByRole("heading", { level: 1, name: "Guide" }).waitFor();
    await main.getByRole("button", { name: "Edit" }).click();
    await page.waitForURL(/\/change-requests\/\d+\/guide$/);
    await surface(page).waitFor();
    await endOf(page, "Last words.");
    await page.keyboard.type(" Live.");
    await saved(page);
    await main.getByRole("button", { name: "Merge" }).click();
    await main.getByRole("status").filter({ hasText: "Merged into the main content" }).waitFor();
    const { pages } = await api<{ pages: Schema<"RevisionPage">[] }>(`/v1/spaces/${spaceId}/content/pages`);
    const merged = await api<{ markdown: string }>(
      `/v1/spaces/${spaceId}/content/page/${pages[0]?.id}?format=markdown`,
    );
    expect(merged.markdown).toBe(BODY.replace("Last words.", "Last words. Live."));
    await page.context().close();
  });
});
