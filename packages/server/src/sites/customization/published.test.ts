import type { Schema } from "@quire/api-types";
import { parseHTML } from "linkedom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContentScenario, createContentScenario, insertPage } from "../../change-requests/testing.js";
import { siteVisits } from "../testing.js";
import { DEFAULT_CUSTOMIZATION } from "./settings.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());
const { sitePath, visit, publishedSite } = siteVisits(() => s);

/** A published site over a Guide and a Reference page, customized with `settings` of `reference`'s id. */
async function customized(
  settings: (reference: string) => Partial<Schema<"SiteCustomizationSettingsInput">>,
) {
  const { site, pageIds } = await publishedSite([
    insertPage("Guide", "Words."),
    insertPage("Reference", "All."),
  ]);
  const body = { ...DEFAULT_CUSTOMIZATION, ...settings(pageIds.Reference ?? "") };
  await s.t.request.put(sitePath(site.id, "/customization")).set(s.admin.auth).send(body).expect(200);
  const page = async () => parseHTML((await visit(`/s/${site.id}/`).expect(200)).text).document;
  return { siteId: site.id, page };
}

const attributes = (elements: ArrayLike<Element>, ...names: string[]) =>
  Array.from(elements, (element) => [
    element.textContent,
    ...names.map((name) => element.getAttribute(name)),
  ]);

describe("a published page honours its site's customization", () => {
  it("draws the favicon's emoji, in an SVG of its own", async () => {
    const { page } = await customized(() => ({ favicon: { emoji: "1f389" } }));
    const icons = (await page()).querySelectorAll('link[rel="icon"]');
    expect(icons).toHaveLength(1);
    const href = icons[0]?.getAttribute("href") ?? "";
    expect(href.startsWith("data:image/svg+xml,")).toBe(true);
    expect(decodeURIComponent(href.slice("data:image/svg+xml,".length))).toContain(">🎉</text></svg>");
  });

  it("links social accounts, the privacy policy and the primary link; opens links out in a new tab", async () => {
    const { siteId, page } = await customized((reference) => ({
      header: {
        preset: "default",
        primaryLink: { kind: "url", url: "https://example.com/start" },
        links: [
          { title: "Blog", to: { kind: "url", url: "https://example.com/blog" }, links: [] },
          { title: "API", to: { kind: "page", page: reference }, links: [] },
        ],
      },
      footer: {
        groups: [
          {
            title: "More",
            links: [{ title: "About", to: { kind: "url", url: "https://example.com/about" } }],
          },
        ],
      },
      announcement: {
        enabled: true,
        message: "News",
        link: { title: "Read", to: { kind: "url", url: "https://example.com/news" } },
        style: "info",
      },
      externalLinks: { target: "blank" },
      privacyPolicy: { url: "https://example.com/privacy" },
      socialAccounts: [
        { platform: "github", handle: "acme", display: { footer: true, header: false } },
        { platform: "mastodon", handle: "@acme@social.test", display: { footer: false, header: true } },
        { platform: "slack", handle: "not a host", display: { footer: true, header: true } },
      ],
    }));
    const document = await page();
    const out = ["_blank", "noopener noreferrer"];
    expect(attributes(document.querySelectorAll("header .site-links a"), "href", "target", "rel")).toEqual([
      ["Blog", "https://example.com/blog", ...out],
      ["API", `/s/${siteId}/reference/`, null, null],
      ["Mastodon", "https://social.test/@acme", ...out],
    ]);
    // The title leads to the header's primary link.
    expect(attributes(document.querySelectorAll("header .home"), "href", "target")).toEqual([
      ["Handbook", "https://example.com/start", "_blank"],
    ]);
    expect(attributes(document.querySelectorAll(".site-footer a"), "href", "target", "rel")).toEqual([
      ["About", "https://example.com/about", ...out],
      ["GitHub", "https://github.com/acme", ...out],
      ["Privacy policy", "https://example.com/privacy", ...out],
    ]);
    expect(attributes(document.querySelectorAll(".announcement a"), "href", "target", "rel")).toEqual([
      ["Read", "https://example.com/news", ...out],
    ]);
  });

  it("gives link previews its image, and drops the pager and the trademark when they are off", async () => {
    const { page } = await customized(() => ({}));
    const before = await page();
    expect(before.querySelector(".pager")).not.toBeNull();
    expect(before.querySelector(".trademark")?.textContent).toBe("Powered by Quire");
    expect(before.querySelector('meta[property="og:image"]')).toBeNull();

    const { page: off } = await customized(() => ({
      pagination: { enabled: false },
      trademark: { enabled: false },
      socialPreview: { url: "https://example.com/preview.png" },
    }));
    const document = await off();
    expect(document.querySelector(".pager")).toBeNull();
    expect(document.querySelector(".trademark")).toBeNull();
    expect(document.querySelector('meta[property="og:image"]')?.getAttribute("content")).toBe(
      "https://example.com/preview.png",
    );
    expect(document.querySelector('meta[name="twitter:image"]')?.getAttribute("content")).toBe(
      "https://example.com/preview.png",
    );
  });

  it("colours the header by its preset, and flattens elements", async () => {
    const { page } = await customized(() => ({
      styling: { ...DEFAULT_CUSTOMIZATION.styling, depth: "flat" },
      header: {
        preset: "custom",
        backgroundColor: { light: "#101010", dark: "#202020" },
        linkColor: { light: "#fafafa", dark: "#eeeeee" },
        links: [],
      },
    }));
    const style = (await page()).querySelector("style")?.textContent ?? "";
    expect(style).toContain("body>header{background:light-dark(#101010,#202020)}");
    expect(style).toContain("body>header a{color:light-dark(#fafafa,#eeeeee)}");
    expect(style).toContain(".instant{box-shadow:none}");
  });

  it("links each page's Markdown, its one page action, unless none is asked", async () => {
    const { siteId, page } = await customized(() => ({ pageActions: { items: ["markdown"] } }));
    const href = (await page()).querySelector(".page-actions a")?.getAttribute("href");
    expect(href).toBe(`/s/${siteId}/guide.md`);
    const markdown = await visit(href ?? "").expect(200);
    expect(markdown.type).toBe("text/markdown");

    const { page: none } = await customized(() => ({ pageActions: { items: [] } }));
    expect((await none()).querySelector(".page-actions")).toBeNull();
  });
});
