import { parseHTML } from "linkedom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContentScenario, createContentScenario } from "../change-requests/testing.js";
import { SITE_SCRIPT, STYLESHEET } from "./assets.js";
import { siteVisits } from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());
const { visit, publishedSite } = siteVisits(() => s);

describe("a published site's assets", () => {
  it("are linked from every page by a name that changes with them, and kept a year", async () => {
    const { site } = await publishedSite();
    const page = await visit(`/s/${site.id}/guide`).expect(200);
    const { document } = parseHTML(page.text);
    expect(document.querySelector('link[rel="stylesheet"]')?.getAttribute("href")).toBe(
      `/s/${site.id}/${STYLESHEET.name}`,
    );
    expect(document.querySelector("script[defer]")?.getAttribute("src")).toBe(
      `/s/${site.id}/${SITE_SCRIPT.name}`,
    );
    // No inline style or script: the policy lets the site's own files in, and nothing else.
    expect(document.querySelectorAll("style, script:not([src])")).toHaveLength(0);
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["content-security-policy"]).toContain("style-src 'self'");

    for (const [asset, type] of [
      [STYLESHEET, "text/css"],
      [SITE_SCRIPT, "text/javascript"],
    ] as const) {
      const res = await visit(`/s/${site.id}/${asset.name}`).expect(200);
      expect(res.headers["content-type"]).toContain(type);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.text).toBe(asset.body.toString());
    }
    expect(STYLESHEET.name).toMatch(/^quire-site\.[\w-]{12}\.css$/);
    // A name that is not an asset's is a page path like any other.
    await visit(`/s/${site.id}/quire-site.0000.css`).expect(404);
  });

  it("are the same for a share-link site, without its key: they hold nothing of the site's", async () => {
    const { site } = await publishedSite(undefined, { visibility: "share-link" });
    await visit(`/s/${site.id}/guide`).expect(404);
    const res = await visit(`/s/${site.id}/${STYLESHEET.name}`).expect(200);
    expect(res.text).toBe(STYLESHEET.body.toString());
  });
});
