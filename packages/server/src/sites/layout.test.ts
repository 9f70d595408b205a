import type { Schema } from "@quire/api-types";
import { parseHTML } from "linkedom";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  flatten,
  insertPage,
  newSpaceContent,
} from "../change-requests/testing.js";
import { browserMissing, inBrowser, seriousViolations } from "../testing/browser.js";
import { siteVisits } from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());
const { siteApi, visit } = siteVisits(() => s);

/** A long page: headings of every level, a table wider than a phone, a long line of code, an image. */
const LONG_PAGE = [
  "Quire serves documentation.",
  "## Getting started",
  ...Array.from({ length: 20 }, (_, i) => `Paragraph ${i} of text that a reader reads, long enough to wrap.`),
  "### First steps",
  "Run the server.",
  "#### Deep detail",
  "Not in the contents.",
  "##### Fine print",
  "Smaller.",
  "###### Finest print",
  "Smallest.",
  "## Wide table",
  [
    `| ${Array.from({ length: 12 }, (_, i) => `Column${i}WithALongName`).join(" | ")} |`,
    `|${" --- |".repeat(12)}`,
    `| ${Array.from({ length: 12 }, (_, i) => `value-${i}-that-is-long`).join(" | ")} |`,
  ].join("\n"),
  "### Long code",
  "```js",
  `const line = "${"x".repeat(300)}";`,
  "```",
  "## Images",
  '<img src="/missing.png" alt="A diagram" width="2000">',
  ...Array.from({ length: 40 }, (_, i) => `More text ${i}, so that the page scrolls far.`),
].join("\n\n");

/** The anchors of the long page's h2 and h3 headings, in order. */
const CONTENTS = ["getting-started", "first-steps", "wide-table", "long-code", "images"];

/**
 * A published site over a space of pages in this tree order: Overview (the long page), Guide >
 * (Install, Configure > Advanced), Reference.
 */
async function docSet(): Promise<Schema<"Site">> {
  const content = await newSpaceContent(s);
  const cr = (await content.createChangeRequest()).number;
  const idOf = async (title: string) => flatten(await content.pages(cr)).find((p) => p.title === title)?.id;
  await content.edit(cr, [
    insertPage("Overview", LONG_PAGE),
    insertPage("Guide", "The guide."),
    insertPage("Reference", "## Commands\n\nAll of them."),
  ]);
  const guide = await idOf("Guide");
  await content.edit(cr, [
    insertPage("Install", "Install it.", guide),
    insertPage("Configure", "Set it.", guide),
  ]);
  await content.edit(cr, [insertPage("Advanced", "More settings.", await idOf("Configure"))]);
  await content.merge(cr);
  const site: Schema<"Site"> = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, {
    title: "Handbook",
    spaces: [content.spaceId],
  });
  await siteApi("post", `/v1/orgs/${s.organizationId}/sites/${site.id}/publish`);
  return site;
}

let site: Schema<"Site">;
beforeAll(async () => {
  site = await docSet();
});
const at = (path = "") => `/s/${site.id}/${path}`;

/** The page at `path` as a document, expecting `status`. */
async function documentAt(path: string, status = 200) {
  return parseHTML((await visit(at(path)).expect(status)).text).document;
}

const hrefs = (links: ArrayLike<Element>) => Array.from(links, (link) => link.getAttribute("href"));
const texts = (elements: ArrayLike<Element>) =>
  Array.from(elements, (element) => element.textContent?.trim());

describe("the navigation of a published page", () => {
  it("lists the page's h2 and h3 headings, in order, linking to their anchors", async () => {
    const document = await documentAt("");
    const contents = document.querySelector('nav[aria-label="On this page"]');
    expect(hrefs(contents?.querySelectorAll("a") ?? [])).toEqual(CONTENTS.map((anchor) => `#${anchor}`));
    for (const anchor of CONTENTS) expect(document.querySelector(`main [id="${anchor}"]`)).not.toBeNull();
    // A page without such headings has no contents.
    expect((await documentAt("guide/install/")).querySelector('nav[aria-label="On this page"]')).toBeNull();
  });

  it("links to the previous and next pages in the tree's order, the first page having no previous one", async () => {
    const order = [
      "",
      "guide/",
      "guide/install/",
      "guide/configure/",
      "guide/configure/advanced/",
      "reference/",
    ];
    for (const [i, path] of order.entries()) {
      const pager = (await documentAt(path)).querySelector('nav[aria-label="Previous and next pages"]');
      const previous = pager?.querySelector("a[rel=prev]")?.getAttribute("href");
      const next = pager?.querySelector("a[rel=next]")?.getAttribute("href");
      // The first page is served at the site's root, and linked at its own path.
      expect(previous).toBe(i === 0 ? undefined : at(order[i - 1] || "overview/"));
      expect(next).toBe(i === order.length - 1 ? undefined : at(order[i + 1]));
    }
  });

  it("shows the page's ancestors as breadcrumbs", async () => {
    const breadcrumbs = (document: Document) =>
      texts(document.querySelectorAll('nav[aria-label="Breadcrumbs"] a'));
    const advanced = await documentAt("guide/configure/advanced/");
    expect(breadcrumbs(advanced)).toEqual(["Guide", "Configure"]);
    expect(hrefs(advanced.querySelectorAll('nav[aria-label="Breadcrumbs"] a'))).toEqual([
      at("guide/"),
      at("guide/configure/"),
    ]);
    expect(breadcrumbs(await documentAt("reference/"))).toEqual([]);
  });

  it("opens the sidebar's groups on the current page's ancestors only", async () => {
    const groups = async (path: string) => {
      const all = (await documentAt(path)).querySelectorAll('nav[aria-label="Pages"] details');
      // A group's page is the link before its details.
      const title = (details: Element) => details.previousElementSibling?.textContent?.trim();
      return {
        open: Array.from(all)
          .filter((d) => d.hasAttribute("open"))
          .map(title),
        all: Array.from(all).map(title),
      };
    };
    expect(await groups("guide/configure/advanced/")).toEqual({
      open: ["Guide", "Configure"],
      all: ["Guide", "Configure"],
    });
    expect((await groups("guide/install/")).open).toEqual(["Guide"]);
    expect((await groups("reference/")).open).toEqual([]);
    // A group's own page opens it, so that its pages show.
    expect((await groups("guide/")).open).toEqual(["Guide"]);
  });

  it("answers an unknown page with a 404 that keeps the site's header and navigation, and a way home", async () => {
    const document = await documentAt("guide/no-such-page/", 404);
    expect(document.querySelector("h1")?.textContent).toBe("Page not found");
    expect(document.querySelector("header .home")?.textContent).toBe("Handbook");
    expect(texts(document.querySelectorAll('nav[aria-label="Pages"] a'))).toEqual([
      "Overview",
      "Guide",
      "Install",
      "Configure",
      "Advanced",
      "Reference",
    ]);
    expect(hrefs(document.querySelectorAll("main a"))).toEqual([at()]);
    expect(document.querySelectorAll("details[open]")).toHaveLength(0);
  });
});

/** A page whose front matter's layout hides its title, the site's pages, its contents and its pager. */
const FOCUSED_PAGE = [
  "---",
  "description: Everything on one wide page.",
  "layout:",
  "  width: wide",
  "  title:",
  "    visible: false",
  "  tableOfContents:",
  "    visible: false",
  "  outline:",
  "    visible: false",
  "  pagination:",
  "    visible: false",
  "---",
  "",
  "## Part one",
  "",
  `${"Wide text that fills the column. ".repeat(40)}`,
  "",
  "## Part two",
  "",
  "The end.",
].join("\n");

/** A published site of two pages: the focused one, then an ordinary one. */
async function focusedSite(): Promise<string> {
  const content = await newSpaceContent(s);
  await content.seed([insertPage("Focused", FOCUSED_PAGE), insertPage("Ordinary", "## Heading\n\nText.")]);
  const focused: Schema<"Site"> = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, {
    title: "Layouts",
    spaces: [content.spaceId],
  });
  await siteApi("post", `/v1/orgs/${s.organizationId}/sites/${focused.id}/publish`);
  return `/s/${focused.id}/`;
}

describe("a published page's layout", () => {
  it("shows what its front matter's layout shows, and GitBook's defaults for the rest", async () => {
    const root = await focusedSite();
    const page = async (path: string) => parseHTML((await visit(`${root}${path}`).expect(200)).text).document;
    const focused = await page("");
    // The title stays the page's heading, for screen readers only.
    expect(focused.querySelector("main h1")?.getAttribute("class")).toBe("visually-hidden");
    expect(focused.querySelector("main h1")?.textContent).toBe("Focused");
    expect(focused.querySelector("main .description")?.textContent).toBe("Everything on one wide page.");
    expect(focused.querySelector('nav[aria-label="Pages"]')).toBeNull();
    expect(focused.querySelector('nav[aria-label="On this page"]')).toBeNull();
    expect(focused.querySelector('nav[aria-label="Previous and next pages"]')).toBeNull();
    expect(focused.querySelector(".column")?.getAttribute("class")).toBe("column wide");

    const ordinary = await page("ordinary/");
    expect(ordinary.querySelector("main h1")?.hasAttribute("class")).toBe(false);
    expect(ordinary.querySelector("main .description")).toBeNull();
    expect(texts(ordinary.querySelectorAll('nav[aria-label="Pages"] a'))).toEqual(["Focused", "Ordinary"]);
    expect(ordinary.querySelector('nav[aria-label="On this page"]')).not.toBeNull();
    expect(hrefs(ordinary.querySelectorAll('nav[aria-label="Previous and next pages"] a'))).toEqual([
      `${root}focused/`,
    ]);
    expect(ordinary.querySelector(".column")?.getAttribute("class")).toBe("column");
  });
});

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The relative luminance of a CSS `rgb(…)` colour, 0 (black) to 1 (white). */
function luminance(color: string): number {
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const background = (page: Page) =>
  page.locator("body").evaluate((body) => getComputedStyle(body).backgroundColor);

describe.skipIf(browserMissing)("a published site's layout in a browser", { timeout: 60_000 }, () => {
  const browser = inBrowser(() => s.t.app);

  it("lays a page out as its front matter says: a wide column alone, its title for screen readers only", async () => {
    const root = await focusedSite();
    // axe is a script, which the pages' policy refuses: the test's context bypasses it.
    const focused = await browser.open(root, { viewport: DESKTOP, bypassCSP: true });
    const title = await focused.locator("main h1").boundingBox();
    expect(title?.width).toBeLessThanOrEqual(1);
    expect(await focused.getByRole("heading", { level: 1, name: "Focused" }).count()).toBe(1);
    expect(await focused.getByText("Everything on one wide page.").isVisible()).toBe(true);
    expect(await focused.locator("aside").count()).toBe(0);
    const wide = (await focused.locator(".column").boundingBox())?.width ?? 0;
    const ordinary = await browser.open(`${root}ordinary/`, { viewport: DESKTOP });
    expect(await ordinary.locator("aside").isVisible()).toBe(true);
    const usual = (await ordinary.locator(".column").boundingBox())?.width ?? 0;
    expect(wide).toBeGreaterThan(usual + 150);
    expect(await focused.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      DESKTOP.width,
    );
    expect(await seriousViolations(focused)).toEqual([]);
  });

  it("never scrolls sideways on a phone: wide tables and long code scroll inside themselves", async () => {
    const page = await browser.open(at(), { viewport: PHONE });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const scrolls = (selector: string) =>
      page.locator(selector).evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(await scrolls("main table")).toBe(true);
    expect(await scrolls("main pre")).toBe(true);
  });

  it("opens the sidebar from the menu button on a phone, without a script", async () => {
    const page = await browser.open(at(), { viewport: PHONE, javaScriptEnabled: false });
    const pages = page.getByRole("navigation", { name: "Pages", exact: true });
    expect(await pages.isVisible()).toBe(false);
    await page.locator("label", { hasText: "Menu" }).click();
    expect(await pages.isVisible()).toBe(true);
    await page.getByRole("link", { name: "Reference" }).click();
    await page.waitForURL(`**${at("reference/")}`);
  });

  it("keeps the sidebar in view on a desktop as the page scrolls, with the menu button hidden", async () => {
    const page = await browser.open(at(), { viewport: DESKTOP });
    const aside = page.locator("aside");
    expect(await aside.evaluate((element) => getComputedStyle(element).position)).toBe("sticky");
    expect(await page.locator("label", { hasText: "Menu" }).isVisible()).toBe(false);
    await page.mouse.wheel(0, 3000);
    await page.waitForFunction(() => window.scrollY > 1000);
    expect((await aside.boundingBox())?.y).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      DESKTOP.width,
    );
  });

  it("follows the reader's dark colour scheme, and switches theme without a script", async () => {
    const dark = await browser.open(at(), { colorScheme: "dark" });
    expect(luminance(await background(dark))).toBeLessThan(0.05);
    const light = await browser.open(at(), { colorScheme: "light", javaScriptEnabled: false });
    expect(luminance(await background(light))).toBeGreaterThan(0.9);
    await light.locator("label", { hasText: "Switch theme" }).click();
    expect(luminance(await background(light))).toBeLessThan(0.05);
  });

  it("sizes headings from h1 down, h5 and h6 no smaller than the text", async () => {
    const page = await browser.open(at());
    const size = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => Number.parseFloat(getComputedStyle(element).fontSize));
    const body = await size("main p");
    const sizes: number[] = [];
    for (const level of [1, 2, 3, 4, 5, 6]) sizes.push(await size(`main h${level}`));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(new Set(sizes).size).toBe(6);
    expect(sizes.at(-1)).toBeGreaterThanOrEqual(body);
  });

  it("remembers the reader's theme from page to page", async () => {
    const page = await browser.open(at(), { colorScheme: "light" });
    await page.locator("label", { hasText: "Switch theme" }).click();
    await page.getByRole("link", { name: "Reference" }).first().click();
    await page.waitForURL(`**${at("reference/")}`);
    expect(luminance(await background(page))).toBeLessThan(0.05);
  });

  it("copies a code block with its button", async () => {
    const page = await browser.open(at(), { permissions: ["clipboard-read", "clipboard-write"] });
    await page.getByRole("button", { name: "Copy the code" }).click();
    await page.getByRole("button", { name: "Copy the code" }).filter({ hasText: "Copied" }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.trimEnd()).toBe(`const line = "${"x".repeat(300)}";`);
  });

  it("marks in the contents the heading being read", async () => {
    const page = await browser.open(at(), { viewport: DESKTOP });
    const current = () => page.locator('nav[aria-label="On this page"] a[aria-current]').getAttribute("href");
    expect(await current()).toBe("#getting-started");
    // The last heading, followed by enough text to be scrolled to the top.
    await page.locator('[id="images"]').evaluate((heading) => heading.scrollIntoView());
    await page.waitForFunction(
      () =>
        document.querySelector('nav[aria-label="On this page"] a[aria-current]')?.getAttribute("href") ===
        "#images",
    );
    expect(await current()).toBe("#images");
  });

  it("shows results under the search box as the reader types, which open a deep page", async () => {
    const page = await browser.open(at(), { viewport: DESKTOP });
    await page.getByRole("searchbox", { name: "Search this site" }).pressSequentially("settings");
    const result = page
      .getByRole("region", { name: "Search results" })
      .getByRole("link", { name: /Advanced/ });
    await result.click();
    await page.waitForURL(`**${at("guide/configure/advanced/")}`);
  });

  for (const [name, viewport, colorScheme] of [
    ["desktop", DESKTOP, "light"],
    ["phone", PHONE, "light"],
    ["phone, dark", PHONE, "dark"],
  ] as const)
    it(`has no serious or critical accessibility violation on a long page (${name})`, async () => {
      // axe is a script, which the pages' policy refuses: the test's context bypasses it.
      const page = await browser.open(at(), { viewport, colorScheme, bypassCSP: true });
      expect(await seriousViolations(page)).toEqual([]);
      // The table and the code block, which scroll sideways inside themselves, take the keyboard's focus.
      const focused: string[] = [];
      for (let tab = 0; tab < 40 && !(focused.includes("PRE") && focused.includes("TABLE")); tab++) {
        await page.keyboard.press("Tab");
        focused.push(await page.evaluate(() => document.activeElement?.tagName ?? ""));
      }
      expect(focused).toEqual(expect.arrayContaining(["PRE", "TABLE"]));
    });

  it("has no serious or critical accessibility violation on the search page, results shown", async () => {
    const page = await browser.open(at("search?q=settings"), { viewport: DESKTOP, bypassCSP: true });
    expect(await page.locator(".search-results li").count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
