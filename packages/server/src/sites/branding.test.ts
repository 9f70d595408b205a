import { createHash } from "node:crypto";
import type { Schema } from "@quire/api-types";
import { parseHTML } from "linkedom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContentScenario, createContentScenario, insertPage } from "../change-requests/testing.js";
import { browserMissing, inBrowser, seriousViolations } from "../testing/browser.js";
import { DEFAULT_CUSTOMIZATION } from "./customization/settings.js";
import { siteVisits } from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());
const { sitePath, siteApi, visit, publishedSite } = siteVisits(() => s);

/** A published site over a space with a Guide and a Reference page; its id and the Reference page's. */
async function publishedBrandable() {
  const { site, pageIds } = await publishedSite([
    insertPage("Guide", "Read [the reference](reference.md)."),
    insertPage("Reference", "All."),
  ]);
  return { siteId: site.id, reference: pageIds.Reference ?? "" };
}

const branded = (reference: string): Schema<"SiteCustomizationSettingsInput"> => ({
  ...DEFAULT_CUSTOMIZATION,
  title: "Acme Docs",
  styling: { ...DEFAULT_CUSTOMIZATION.styling, primaryColor: { light: "#b3261e", dark: "#ffb4ab" } },
  favicon: {
    icon: { light: "https://example.com/icon-light.png", dark: "https://example.com/icon-dark.png" },
  },
  header: {
    logo: { light: "https://example.com/logo-light.png", dark: "https://example.com/logo-dark.png" },
    links: [
      { title: "Blog", to: { kind: "url", url: "https://example.com/blog" }, links: [] },
      { title: "API", to: { kind: "page", page: reference }, links: [] },
    ],
  },
  footer: {
    groups: [
      {
        title: "Company",
        links: [{ title: "About", to: { kind: "url", url: "https://example.com/about" } }],
      },
    ],
    copyright: "© Acme",
  },
  announcement: { enabled: true, message: "Version 2 is out", style: "info" },
});

async function customize(siteId: string, reference: string) {
  await s.t.request
    .put(sitePath(siteId, "/customization"))
    .set(s.admin.auth)
    .send(branded(reference))
    .expect(200);
}

describe("a published site's branding", () => {
  it("shows its customization: title, logo, favicon, header links, announcement, footer and colours", async () => {
    const { siteId, reference } = await publishedBrandable();
    const before = parseHTML((await visit(`/s/${siteId}/`).expect(200)).text).document;
    expect(before.querySelector("header .home")?.textContent).toBe("Handbook");
    expect(before.querySelectorAll("style, .announcement, .site-footer")).toHaveLength(0);

    await customize(siteId, reference);
    const res = await visit(`/s/${siteId}/`).expect(200);
    const { document } = parseHTML(res.text);
    expect(document.querySelector("title")?.textContent).toBe("Guide | Acme Docs");
    expect(
      Array.from(document.querySelectorAll("header .brand-logo img"), (img) => [
        img.getAttribute("src"),
        img.getAttribute("alt"),
      ]),
    ).toEqual([
      ["https://example.com/logo-light.png", "Acme Docs"],
      ["https://example.com/logo-dark.png", "Acme Docs"],
    ]);
    expect(
      Array.from(document.querySelectorAll('link[rel="icon"]'), (link) => link.getAttribute("href")),
    ).toEqual(["https://example.com/icon-light.png", "https://example.com/icon-dark.png"]);
    const links = Array.from(document.querySelectorAll("header .site-links a"), (a) => [
      a.textContent,
      a.getAttribute("href"),
    ]);
    expect(links).toEqual([
      ["Blog", "https://example.com/blog"],
      ["API", `/s/${siteId}/reference/`],
    ]);
    expect(document.querySelector(".announcement")?.textContent).toContain("Version 2 is out");
    expect(document.querySelector(".site-footer")?.textContent).toContain("© Acme");
    expect(document.querySelector(".site-footer a")?.getAttribute("href")).toBe("https://example.com/about");

    // The brand's inline style is the one the page's policy lets in, by its digest.
    const style = document.querySelector("style")?.textContent ?? "";
    expect(style).toContain("--accent:");
    const digest = createHash("sha256").update(style).digest("base64");
    expect(res.headers["content-security-policy"]).toContain(`style-src 'self' 'sha256-${digest}'`);
  });

  it("shows a site space's override in its pages, and the site's again once it is deleted", async () => {
    const { siteId, reference } = await publishedBrandable();
    await customize(siteId, reference);
    const [siteSpace] = (await siteApi("get", sitePath(siteId, "/site-spaces"))).items;
    const overridePath = sitePath(siteId, `/site-spaces/${siteSpace.id}/customization`);
    await siteApi("patch", overridePath, {
      announcement: { enabled: true, message: "Only here", style: "warning" },
    });
    const title = async () =>
      parseHTML((await visit(`/s/${siteId}/`).expect(200)).text).document.querySelector(".announcement")
        ?.textContent;
    expect(await title()).toContain("Only here");
    await s.t.request.delete(overridePath).set(s.admin.auth).expect(204);
    expect(await title()).toContain("Version 2 is out");
  });
});

describe.skipIf(browserMissing)("a branded site in a browser", { timeout: 60_000 }, () => {
  const browser = inBrowser(() => s.t.app);

  it("applies the brand's colours without breaking its policy or its accessibility", async () => {
    const { siteId, reference } = await publishedBrandable();
    await customize(siteId, reference);
    const errors: string[] = [];
    const page = await browser.open(`/s/${siteId}/`, { colorScheme: "light" });
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.reload();
    const accent = await page
      .locator("header .site-links a", { hasText: "Blog" })
      .evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--accent"));
    expect(accent).toContain("#b3261e");
    expect(await page.getByText("Version 2 is out").isVisible()).toBe(true);
    // Only the logo and favicon hosts, unreachable here, may fail to load; no style or script is refused.
    expect(errors.filter((error) => /Content Security Policy/i.test(error))).toEqual([]);

    const audited = await browser.open(`/s/${siteId}/`, { colorScheme: "dark", bypassCSP: true });
    expect(await seriousViolations(audited)).toEqual([]);
  });
});
