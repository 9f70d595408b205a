import type { Schema } from "@quire/api-types";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  newSpaceContent,
} from "../change-requests/testing.js";
import { loggedUrl } from "../http/request-log.js";
import { browserMissing, inBrowser } from "../testing/browser.js";
import { CONTENT_SECURITY_POLICY } from "./render.js";
import { siteVisits } from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());
const { sitePath, siteApi, visit } = siteVisits(() => s);

/**
 * A space with "Guide" and its child "Install", as main content. Guide's body holds HTML, some for
 * readers (`<kbd>`, `<details>`, `<div>`), some the sanitizer must drop (scripts, handlers, styles,
 * `javascript:` links).
 */
async function guideSpace(title: string) {
  const content = await newSpaceContent(s);
  await siteApi("patch", `/v1/spaces/${content.spaceId}`, { title });
  const cr = await content.createChangeRequest();
  await content.edit(cr.number, [
    insertPage(
      "Guide",
      [
        "Some **bold** text. Press <kbd>Ctrl</kbd>.",
        "<script>window.pwned = true</script>",
        "<div>hi</div>",
        '<img src="/logo.png" alt="Logo" onerror="window.pwned = true">',
        "<details>\n<summary>More</summary>\n\nHidden **detail**.\n\n</details>",
        "<style>body{display:none}</style>",
        '[bad](javascript:alert(1)) <a href="javascript:alert(2)">bad too</a> [good](https://example.com)',
      ].join("\n\n"),
    ),
  ]);
  const [guide] = await content.pages(cr.number);
  await content.edit(cr.number, [insertPage("Install", "Run `quire`.", guide?.id)]);
  await content.merge(cr.number);
  return content.spaceId;
}

/** A published site over a new space, with the settings given. */
async function publishedSite(settings: Partial<Schema<"UpdateSiteRequest">> = {}): Promise<Schema<"Site">> {
  const site: Schema<"Site"> = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, {
    title: "Handbook",
    spaces: [await guideSpace("Handbook space")],
  });
  if (Object.keys(settings).length > 0) await siteApi("patch", sitePath(site.id), settings);
  await siteApi("post", sitePath(site.id, "/publish"));
  return site;
}

/**
 * A visitor token for the site, signed with its key as the site's own sign-in service would; it
 * expires an hour after the server's clock unless `expires` (seconds) says otherwise (null: no `exp`).
 */
async function visitorToken(
  siteId: string,
  claims: Record<string, unknown>,
  { key, expires = 3600 }: { key?: string; expires?: number | null } = {},
) {
  const privateKey: string = key ?? (await siteApi("get", sitePath(siteId, "/publishing/auth"))).privateKey;
  const token = new SignJWT(claims).setProtectedHeader({ alg: "HS256" });
  if (expires !== null) token.setExpirationTime(Math.floor(s.t.clock.now().getTime() / 1000) + expires);
  return token.sign(new TextEncoder().encode(privateKey));
}

/** The Max-Age of a `Set-Cookie` value, in seconds. */
const maxAge = (cookie: string) => Number(/; Max-Age=(\d+);/.exec(cookie)?.[1]);

describe("published sites served as HTML", () => {
  it("serves a public site's pages, sanitized, with their navigation, only once published", async () => {
    const site: Schema<"Site"> = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, {
      title: "Handbook",
      spaces: [await guideSpace("Handbook space")],
    });
    await visit(`/s/${site.id}/`).expect(404);

    await siteApi("post", sitePath(site.id, "/publish"));
    const home = await visit(`/s/${site.id}/`).expect(200).expect("content-type", /html/);
    expect(home.text).toContain("<title>Guide | Handbook</title>");
    expect(home.text).toContain("<strong>bold</strong>");
    expect(home.text).toContain('href="https://example.com"');
    // The one script is the site's own file; the body's was dropped.
    expect(home.text.match(/<script[^>]*>/g)).toEqual([
      expect.stringMatching(new RegExp(`^<script src="/s/${site.id}/quire-site\\.[\\w-]+\\.js" defer>$`)),
    ]);
    expect(home.text).not.toContain("javascript:");
    expect(home.text).not.toContain("pwned");
    expect(home.text).not.toContain('name="robots"');

    const install = /<a href="([^"]+)">Install<\/a>/.exec(home.text)?.[1];
    expect(install).toBe(`/s/${site.id}/guide/install/`);
    const page = await visit(install ?? "").expect(200);
    expect(page.text).toContain('<h1 id="install">Install</h1>');
    expect(page.text).toContain("<code>quire</code>");
    expect(page.text).toContain(`<a href="/s/${site.id}/guide/install/" aria-current="page">Install</a>`);

    await visit(`/s/${site.id}/no-such-page/`).expect(404);
    await siteApi("post", sitePath(site.id, "/unpublish"));
    await visit(`/s/${site.id}/`).expect(404);
  });

  it("renders the HTML of a page body that the sanitizer allows, and drops the rest unseen", async () => {
    const site = await publishedSite();
    const main = /<main>(.*)<\/main>/s.exec((await visit(`/s/${site.id}/`).expect(200)).text)?.[1] ?? "";
    expect(main).toContain("Press <kbd>Ctrl</kbd>.");
    expect(main).toContain("<div>hi</div>");
    expect(main).toContain('<img src="/logo.png" alt="Logo">');
    expect(main).toMatch(
      /<details>\s*<summary>More<\/summary>\s*<p>Hidden <strong>detail<\/strong>\.<\/p>\s*<\/details>/,
    );
    expect(main).toContain("<a>bad</a> <a>bad too</a>");
    for (const dropped of ["<script", "pwned", "onerror", "javascript:", "<style", "display:none", "&lt;"])
      expect(main).not.toContain(dropped);
  });

  it("sends every page, error pages too, with a content security policy and no content sniffing", async () => {
    const site = await publishedSite({ visibility: "visitor-auth" });
    const token = await visitorToken(site.id, {});
    for (const [path, status] of [
      [`/s/${site.id}/?jwt_token=${token}`, 200],
      [`/s/${site.id}/`, 401],
      [`/s/${site.id}/no-such-page/?jwt_token=${token}`, 404],
    ] as const)
      await visit(path)
        .expect(status)
        .expect("content-type", /html/)
        .expect("content-security-policy", CONTENT_SECURITY_POLICY)
        .expect("x-content-type-options", "nosniff");
    expect(CONTENT_SECURITY_POLICY).toMatch(/^default-src 'none'; /);
  });

  it("asks search engines to keep out of an unlisted site", async () => {
    const site = await publishedSite({ visibility: "unlisted" });
    expect((await visit(`/s/${site.id}/`).expect(200)).text).toContain(
      '<meta name="robots" content="noindex">',
    );
  });

  it("opens a share-link site only with an active share link's key, which its links keep", async () => {
    const site = await publishedSite({ visibility: "share-link" });
    const link = await siteApi("post", sitePath(site.id, "/share-links"), { name: "Reviewers" });
    const key = new URL(link.urls.published).searchParams.get("share") ?? "";

    await visit(`/s/${site.id}/`).expect(404);
    await visit(`/s/${site.id}/?share=not-a-key`).expect(404);
    const page = await visit(`/s/${site.id}/?share=${key}`).expect(200);
    expect(page.text).toContain(`href="/s/${site.id}/guide/install/?share=${key}"`);

    await siteApi("patch", sitePath(site.id, `/share-links/${link.id}`), { active: false });
    await visit(`/s/${site.id}/?share=${key}`).expect(404);
  });

  it("opens a visitor-auth site only with a token signed with its key, kept in a cookie", async () => {
    const site = await publishedSite({ visibility: "visitor-auth" });
    await visit(`/s/${site.id}/`).expect(401);
    const forged = await visitorToken(site.id, {}, { key: "a key that is not the site's key, 32 bytes" });
    await visit(`/s/${site.id}/?jwt_token=${forged}`).expect(401);

    const token = await visitorToken(site.id, { name: "Ada" });
    const first = await visit(`/s/${site.id}/?jwt_token=${token}`).expect(200);
    const cookie = first.headers["set-cookie"]?.[0] ?? "";
    expect(cookie).toMatch(
      new RegExp(`^quire_visitor=${token}; Max-Age=\\d+; Path=/s/${site.id}/; HttpOnly; SameSite=Lax$`),
    );
    // The cookie lasts as long as the token has left (an hour, less the seconds since it was signed).
    expect(maxAge(cookie)).toBeGreaterThan(3600 - 60);
    expect(maxAge(cookie)).toBeLessThanOrEqual(3600);
    await visit(`/s/${site.id}/guide/install/`)
      .set("Cookie", cookie.split(";")[0] ?? "")
      .expect(200);

    // A token valid for a month is kept a day at most.
    const lasting = await visitorToken(site.id, { name: "Ada" }, { expires: 30 * 24 * 60 * 60 });
    const kept = await visit(`/s/${site.id}/?jwt_token=${lasting}`).expect(200);
    expect(maxAge(kept.headers["set-cookie"]?.[0] ?? "")).toBe(24 * 60 * 60);

    await siteApi("patch", sitePath(site.id, "/publishing/auth"), {
      backend: "custom",
      fallbackURL: "https://login.example.com/",
    });
    await visit(`/s/${site.id}/`).expect(302).expect("location", "https://login.example.com/");
  });

  it("refuses a visitor token without an expiry, saying why, and keeps no cookie of it", async () => {
    const site = await publishedSite({ visibility: "visitor-auth" });
    const unexpiring = await visitorToken(site.id, { name: "Ada" }, { expires: null });
    const refused = await visit(`/s/${site.id}/?jwt_token=${unexpiring}`).expect(401);
    expect(refused.text).toContain("This sign-in token has no expiry");
    expect(refused.headers["set-cookie"]).toBeUndefined();
    await visit(`/s/${site.id}/guide/`).set("Cookie", `quire_visitor=${unexpiring}`).expect(401);

    // Not sent back to a sign-in service that would hand out the same token.
    await siteApi("patch", sitePath(site.id, "/publishing/auth"), {
      backend: "custom",
      fallbackURL: "https://login.example.com/",
    });
    expect((await visit(`/s/${site.id}/?jwt_token=${unexpiring}`).expect(401)).text).toContain("no expiry");
  });

  it("shows conditional sections to the visitors whose claims meet them", async () => {
    const site = await publishedSite({ adaptiveContent: { enabled: true } });
    const pro = await siteApi("post", sitePath(site.id, "/sections"), {
      spaceId: await guideSpace("Pro space"),
      title: "Pro",
    });
    await siteApi("patch", sitePath(site.id, `/sections/${pro.id}`), {
      condition: "visitor.claims.plan == 'pro'",
    });

    const anonymous = await visit(`/s/${site.id}/`).expect(200);
    expect(anonymous.text).not.toContain(">Pro</a>");
    await visit(`/s/${site.id}/${pro.path}/`).expect(404);

    const token = await visitorToken(site.id, { plan: "pro" });
    const proVisitor = await visit(`/s/${site.id}/?jwt_token=${token}`).expect(200);
    expect(proVisitor.text).toContain(`<a href="/s/${site.id}/${pro.path}/">Pro</a>`);

    // The claims of a token without an expiry count for nothing.
    const unexpiring = await visitorToken(site.id, { plan: "pro" }, { expires: null });
    const unclaimed = await visit(`/s/${site.id}/?jwt_token=${unexpiring}`).expect(200);
    expect(unclaimed.text).not.toContain(">Pro</a>");
  });

  it("leaves draft sections, section groups and site spaces out of the published site until they go live", async () => {
    const site = await publishedSite();
    const draft = await siteApi("post", sitePath(site.id, "/sections"), {
      spaceId: await guideSpace("Draft space"),
      title: "Upcoming",
      draft: true,
    });
    const grouped = await siteApi("post", sitePath(site.id, "/sections"), {
      spaceId: await guideSpace("Grouped space"),
      title: "Grouped",
    });
    const group = await siteApi("post", sitePath(site.id, "/section-groups"), {
      title: "Later",
      draft: true,
      sections: [grouped.id],
    });
    const variant = await siteApi("post", sitePath(site.id, "/site-spaces"), {
      spaceId: await guideSpace("Variant space"),
      sectionId: draft.id,
    });
    const home = await visit(`/s/${site.id}/`).expect(200);
    expect(home.text).not.toContain(">Upcoming</a>");
    expect(home.text).not.toContain(">Grouped</a>");
    await visit(`/s/${site.id}/${draft.path}/`).expect(404);
    await visit(`/s/${site.id}/${grouped.path}/`).expect(404);
    const published = await siteApi("get", sitePath(site.id, "/published"));
    expect(published.structure.structure.map((x: { title: string }) => x.title)).toEqual(["Handbook"]);

    await siteApi("patch", sitePath(site.id, `/sections/${draft.id}`), { draft: false });
    await siteApi("patch", sitePath(site.id, `/section-groups/${group.id}`), { draft: false });
    await siteApi("patch", sitePath(site.id, `/site-spaces/${variant.id}`), { draft: true });
    const live = await visit(`/s/${site.id}/`).expect(200);
    expect(live.text).toContain(`<a href="/s/${site.id}/${draft.path}/">Upcoming</a>`);
    expect(live.text).toContain(`<a href="/s/${site.id}/${grouped.path}/">Grouped</a>`);
    const section = await visit(`/s/${site.id}/${draft.path}/`).expect(200);
    expect(section.text).not.toContain(">Variant space</a>");
    await visit(`/s/${site.id}/${draft.path}/${variant.path}/`).expect(404);
  });

  it("serves a site at the host of its proxy origin", async () => {
    const site = await publishedSite({ proxy: "docs.example.com/handbook" });
    const page = await visit("/handbook/guide/install/").set("Host", "docs.example.com").expect(200);
    expect(page.text).toContain('<h1 id="install">Install</h1>');
    expect(page.text).toContain('href="/handbook/guide/"');
    await visit("/elsewhere/").set("Host", "docs.example.com").expect(404);
    expect((await visit("/").set("Host", "quire.test").expect(200)).body).toMatchObject({ service: "quire" });
    await visit(`/s/${site.id}/guide/`).expect(200);
  });

  it("keeps share keys and visitor tokens out of the request log", () => {
    expect(loggedUrl("/s/site/page/?share=secret&x=1")).toBe("/s/site/page/?share=***&x=1");
    expect(loggedUrl("/s/site/?jwt_token=a.b.c")).toBe("/s/site/?jwt_token=***");
    expect(loggedUrl("/v1/orgs/o/sites/s/published?shareKey=k")).toBe(
      "/v1/orgs/o/sites/s/published?shareKey=***",
    );
    expect(loggedUrl("/v1/orgs?limit=2")).toBe("/v1/orgs?limit=2");
  });
});

describe.skipIf(browserMissing)("a published site in a browser", () => {
  const browser = inBrowser(() => s.t.app);

  it("loads, follows its navigation, and hides a section from a visitor without the claim", {
    timeout: 60_000,
  }, async () => {
    const site = await publishedSite({ adaptiveContent: { enabled: true } });
    const beta = await siteApi("post", sitePath(site.id, "/sections"), {
      spaceId: await guideSpace("Beta space"),
      title: "Beta",
    });
    await siteApi("patch", sitePath(site.id, `/sections/${beta.id}`), {
      condition: "visitor.claims.beta === true",
    });

    const page = await browser.open(`/s/${site.id}/`);
    expect(await page.title()).toBe("Guide | Handbook");
    expect(await page.locator("main strong").first().textContent()).toBe("bold");
    expect(await page.evaluate(() => "pwned" in globalThis)).toBe(false);
    // The inline style sheet applies under the page's content security policy.
    expect(await page.locator("body").evaluate((body) => getComputedStyle(body).margin)).toBe("0px");
    expect(await page.locator("main kbd").textContent()).toBe("Ctrl");
    await page.getByText("More").click();
    expect(await page.getByText("Hidden detail.").isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Beta" }).count()).toBe(0);
    await page
      .getByRole("navigation", { name: "Pages", exact: true })
      .getByRole("link", { name: "Install" })
      .click();
    await page.waitForURL(`**/s/${site.id}/guide/install/`);
    expect(await page.locator("main h1").textContent()).toBe("Install");

    const token = await visitorToken(site.id, { beta: true });
    const betaVisitor = await browser.open(`/s/${site.id}/?jwt_token=${token}`);
    await betaVisitor.getByRole("link", { name: "Beta" }).click();
    await betaVisitor.waitForURL(`**/s/${site.id}/${beta.path}/`);
    expect(await betaVisitor.locator("header [aria-current=page]").textContent()).toBe("Beta");
  });
});
