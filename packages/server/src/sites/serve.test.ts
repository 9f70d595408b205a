import type { Schema } from "@quire/api-types";
import { SignJWT } from "jose";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  newSpaceContent,
} from "../change-requests/testing.js";
import { loggedUrl } from "../http/request-log.js";
import { browserMissing, inBrowser } from "../testing/browser.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

const sitePath = (siteId: string, rest = "") => `/v1/orgs/${s.organizationId}/sites/${siteId}${rest}`;

/** A request to the site API as the organization's admin, expecting success. */
async function siteApi(method: "get" | "post" | "patch", path: string, body?: object) {
  const res = await s.t.request[method](path).set(s.admin.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

/** A space with "Guide" (a body with markup worth sanitizing) and its child "Install", as main content. */
async function guideSpace(title: string) {
  const content = await newSpaceContent(s);
  await siteApi("patch", `/v1/spaces/${content.spaceId}`, { title });
  const cr = await content.createChangeRequest();
  await content.edit(cr.number, [
    insertPage(
      "Guide",
      "Some **bold** text.\n\n<script>window.pwned = true</script>\n\n[bad](javascript:alert(1)) [good](https://example.com)",
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

/** A visitor's request: no cookie jar, so each visit sends only what the test gives it. */
const visit = (path: string) => supertest(s.t.app).get(path).redirects(0);

/** A visitor token for the site, signed with its key as the site's own sign-in service would. */
async function visitorToken(siteId: string, claims: Record<string, unknown>, key?: string) {
  const privateKey: string = key ?? (await siteApi("get", sitePath(siteId, "/publishing/auth"))).privateKey;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(privateKey));
}

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
    expect(home.text).not.toContain("<script");
    expect(home.text).not.toContain("javascript:");
    expect(home.text).not.toContain('name="robots"');

    const install = /<a href="([^"]+)">Install<\/a>/.exec(home.text)?.[1];
    expect(install).toBe(`/s/${site.id}/guide/install/`);
    const page = await visit(install ?? "").expect(200);
    expect(page.text).toContain("<h1>Install</h1>");
    expect(page.text).toContain("<code>quire</code>");
    expect(page.text).toContain(`<a href="/s/${site.id}/guide/install/" aria-current="page">Install</a>`);

    await visit(`/s/${site.id}/no-such-page/`).expect(404);
    await siteApi("post", sitePath(site.id, "/unpublish"));
    await visit(`/s/${site.id}/`).expect(404);
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
    const forged = await visitorToken(site.id, {}, "a key that is not the site's key, 32 bytes");
    await visit(`/s/${site.id}/?jwt_token=${forged}`).expect(401);

    const token = await visitorToken(site.id, { name: "Ada" });
    const first = await visit(`/s/${site.id}/?jwt_token=${token}`).expect(200);
    const cookie = first.headers["set-cookie"]?.[0] ?? "";
    expect(cookie).toMatch(
      new RegExp(`^quire_visitor=${token}; Path=/s/${site.id}/; Expires=.*; HttpOnly; SameSite=Lax$`),
    );
    await visit(`/s/${site.id}/guide/install/`)
      .set("Cookie", cookie.split(";")[0] ?? "")
      .expect(200);

    await siteApi("patch", sitePath(site.id, "/publishing/auth"), {
      backend: "custom",
      fallbackURL: "https://login.example.com/",
    });
    await visit(`/s/${site.id}/`).expect(302).expect("location", "https://login.example.com/");
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
  });

  it("serves a site at the host of its proxy origin", async () => {
    const site = await publishedSite({ proxy: "docs.example.com/handbook" });
    const page = await visit("/handbook/guide/install/").set("Host", "docs.example.com").expect(200);
    expect(page.text).toContain("<h1>Install</h1>");
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
    expect(await page.locator("main strong").textContent()).toBe("bold");
    expect(await page.evaluate(() => "pwned" in globalThis)).toBe(false);
    expect(await page.getByRole("link", { name: "Beta" }).count()).toBe(0);
    await page.getByRole("link", { name: "Install" }).click();
    await page.waitForURL(`**/s/${site.id}/guide/install/`);
    expect(await page.locator("main h1").textContent()).toBe("Install");

    const token = await visitorToken(site.id, { beta: true });
    const betaVisitor = await browser.open(`/s/${site.id}/?jwt_token=${token}`);
    await betaVisitor.getByRole("link", { name: "Beta" }).click();
    await betaVisitor.waitForURL(`**/s/${site.id}/${beta.path}/`);
    expect(await betaVisitor.locator("header [aria-current=page]").textContent()).toBe("Beta");
  });
});
