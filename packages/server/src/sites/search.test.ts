import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  expectError,
  insertPage,
  newSpaceContent,
} from "../change-requests/testing.js";
import { browserMissing, inBrowser } from "../testing/browser.js";
import { guestOf } from "../testing/fixtures.js";
import { siteVisits } from "./testing.js";

type Results = { count: number; items: Schema<"SearchSpaceResult">[] };

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());
const { sitePath, siteApi, visit } = siteVisits(() => s);

/** A unique word, so that tests sharing the organization do not see each other's pages. */
let counter = 0;
const word = (name: string) => `${name}${++counter}q`;

/** A space titled `title` whose main content is one page holding `text`, indexed by its merge. */
async function spaceWith(title: string, page: string, text: string): Promise<string> {
  const content = await newSpaceContent(s);
  await siteApi("patch", `/v1/spaces/${content.spaceId}`, { title });
  await content.seed([insertPage(page, `${text}\n\n## Details\n\nMore about ${text}.`)]);
  return content.spaceId;
}

/** The titles of the spaces and pages found, in order. */
const found = (results: Results) =>
  results.items.map((space) => [space.title, space.pages.map((p) => p.title)]);

describe("POST /v1/orgs/{organizationId}/sites/{siteId}/search", () => {
  it("finds what the site publishes, and nothing of the organization's other spaces, within its scope", async () => {
    const term = word("heron");
    const guide = await spaceWith("Guide", "Birds", `The ${term} waits.`);
    const v2 = await spaceWith("Guide v2", "Birds v2", `A ${term} again.`);
    await spaceWith("Internal", "Notes", `Our ${term} notes.`);
    const site: Schema<"Site"> = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, {
      title: "Birds",
      spaces: [guide],
    });
    const second: Schema<"SiteSpace"> = await siteApi("post", sitePath(site.id, "/site-spaces"), {
      spaceId: v2,
    });
    const search = async (body: object) =>
      (await s.t.request.post(sitePath(site.id, "/search")).set(s.reader.auth).send(body).expect(200))
        .body as Results;

    const all = await search({ query: term });
    expect(all.count).toBe(2);
    expect(found(all).sort(([a], [b]) => String(a).localeCompare(String(b)))).toEqual([
      ["Guide", ["Birds"]],
      ["Guide v2", ["Birds v2"]],
    ]);
    expect(found(all).flat(2)).not.toContain("Internal");
    const [first] = all.items[0]?.pages ?? [];
    expect(first?.sections?.[0]?.body).toContain(term);
    // GitBook tells a site's results apart by `type`: Quire's are spaces; ranks run across them.
    expect(all.items.map((space) => space.type)).toEqual(["space", "space"]);
    expect(all.items.map((space) => space.pages[0]?.rank)).toEqual([1, 2]);

    // The default scope: each container's default site space, and the reader's current one.
    expect(found(await search({ query: term, scope: { mode: "default" } }))).toEqual([["Guide", ["Birds"]]]);
    const withCurrent = await search({
      query: term,
      scope: { mode: "default", currentSiteSpace: second.id },
    });
    expect(withCurrent.count).toBe(2);
    expect(found(await search({ query: term, siteSpaceIds: [second.id] }))).toEqual([
      ["Guide v2", ["Birds v2"]],
    ]);
    // Part of the default scope: the current site space alone, or the others.
    const restricted = async (restrictTo: string) =>
      found(
        await search({ query: term, scope: { mode: "default", currentSiteSpace: second.id, restrictTo } }),
      );
    expect(await restricted("currentSiteSpace")).toEqual([["Guide v2", ["Birds v2"]]]);
    expect(await restricted("otherSiteSpaces")).toEqual([["Guide", ["Birds"]]]);
    expect((await search({ query: term, scope: { mode: "all" } })).count).toBe(2);
    expect(
      found(await search({ query: term, scope: { mode: "specific", siteSpaceIds: [second.id] } })),
    ).toEqual([["Guide v2", ["Birds v2"]]]);
    // GitBook's earlier forms of the same scopes.
    expect((await search({ query: term, mode: "current", siteSpaceId: second.id })).count).toBe(2);
    expect(found(await search({ query: term, mode: "specific", siteSpaceIds: [second.id] }))).toEqual([
      ["Guide v2", ["Birds v2"]],
    ]);
    expect((await search({ query: term, mode: "all" })).count).toBe(2);
    // The current site space's language picks, in its container, the site space in that language.
    await siteApi("patch", `/v1/spaces/${guide}`, { language: "en" });
    await siteApi("patch", `/v1/spaces/${v2}`, { language: "fr" });
    expect(
      found(await search({ query: term, scope: { mode: "default", currentSiteSpace: second.id } })),
    ).toEqual([["Guide v2", ["Birds v2"]]]);
    expect(found(await search({ query: term, scope: { mode: "default" } }))).toEqual([["Guide", ["Birds"]]]);
    expect((await search({ query: "" })).count).toBe(0);
    // The organization's search still finds the space the site does not publish.
    const org = await s.t.request
      .get(`/v1/orgs/${s.organizationId}/search?query=${term}`)
      .set(s.reader.auth)
      .expect(200);
    expect(org.body.count).toBe(3);
  });

  it("answers 401, 404 (another organization's site too), 403 to a guest and 400", async () => {
    const site: Schema<"Site"> = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, {
      title: "Search",
    });
    const path = sitePath(site.id, "/search");
    await s.t.request.post(path).send({ query: "x" }).expect(401);
    await s.t.request.post(sitePath("nope", "/search")).set(s.reader.auth).send({ query: "x" }).expect(404);
    const other = await s.t.organization();
    await s.t.request.post(path).set(other.admin.auth).send({ query: "x" }).expect(404);
    const guest = await guestOf(s.t, s.organizationId);
    await s.t.request.post(path).set(guest.auth).send({ query: "x" }).expect(403);
    expectError((await s.t.request.post(path).set(s.reader.auth).send({}).expect(400)).body, 400);
    const tooLong = await s.t.request
      .post(path)
      .set(s.reader.auth)
      .send({ query: "x".repeat(513) })
      .expect(400);
    expectError(tooLong.body, 400);
    const unknown = await s.t.request
      .post(path)
      .set(s.reader.auth)
      .send({ query: "x", siteSpaceIds: ["nope"] })
      .expect(400);
    expectError(unknown.body, 400, 'Site space "nope" is not in this site.');
    const refused = async (body: object, message: RegExp) => {
      const res = await s.t.request
        .post(path)
        .set(s.reader.auth)
        .send({ query: "x", ...body })
        .expect(400);
      expect(res.body.error.message).toMatch(message);
    };
    await refused({ mode: "current" }, /siteSpaceId/);
    await refused({ mode: "specific" }, /siteSpaceIds/);
    await refused({ scope: { mode: "default", restrictTo: "otherSiteSpaces" } }, /currentSiteSpace/);
    await refused({ scope: { mode: "specific", siteSpaceIds: [] } }, /scope/);
    await refused({ scope: { mode: "nearby" } }, /mode/);
  });
});

/** A published site over a space with "Birds" (a section about `term`) and "Fish"; its id. */
async function searchableSite(term: string, settings: object = {}): Promise<string> {
  const content = await newSpaceContent(s);
  await content.seed([
    insertPage("Birds", `Intro.\n\n## The ${term}\n\nA ${term} waits by the water.`),
    insertPage("Fish", "Nothing about birds."),
  ]);
  const site: Schema<"Site"> = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, {
    title: "Nature",
    spaces: [content.spaceId],
  });
  if (Object.keys(settings).length > 0) await siteApi("patch", sitePath(site.id), settings);
  await siteApi("post", sitePath(site.id, "/publish"));
  return site.id;
}

describe("a published site's search page", () => {
  it("lists the sections found, linking to them on the site, the words searched marked", async () => {
    const term = word("egret");
    const siteId = await searchableSite(term);
    const html = (await visit(`/s/${siteId}/search?q=${term.toUpperCase()}`).expect(200)).text;
    const results = /<ol class="search-results">(.*?)<\/ol>/s.exec(html)?.[1] ?? "";
    const hrefs = [...results.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual([`/s/${siteId}/birds/#the-${term}`]);
    expect(results).toContain(`Birds › The ${term}`);
    expect(results).toContain(`<mark>${term}</mark> waits`);
    // The box keeps what was searched; the result leads to a heading that exists.
    expect(html).toMatch(new RegExp(`<input type="search" name="q"[^>]*value="${term.toUpperCase()}"`));
    const page = (await visit(`/s/${siteId}/birds/`).expect(200)).text;
    expect(page).toContain(`id="the-${term}"`);
    expect(page).toContain(`<form role="search" class="search" action="/s/${siteId}/search/" method="get">`);
    expect((await visit(`/s/${siteId}/search?q=nothingmatches${term}`).expect(200)).text).toContain(
      "No results for",
    );
    expect((await visit(`/s/${siteId}/search`).expect(200)).text).toContain("Type words to search for.");
  });

  it("answers a share-link site's search with its key only, the box carrying the key", async () => {
    const term = word("ibis");
    const siteId = await searchableSite(term, { visibility: "share-link" });
    const link = await siteApi("post", sitePath(siteId, "/share-links"), { name: "Reviewers" });
    const key = new URL(link.urls.published).searchParams.get("share") ?? "";
    await visit(`/s/${siteId}/search?q=${term}`).expect(404);
    const html = (await visit(`/s/${siteId}/search?q=${term}&share=${key}`).expect(200)).text;
    expect(html).toContain(`<a href="/s/${siteId}/birds/?share=${key}#the-${term}">`);
    expect(html).toContain(`<input type="hidden" name="share" value="${key}">`);
  });

  describe.skipIf(browserMissing)("in a browser", { timeout: 60_000 }, () => {
    const browser = inBrowser(() => s.t.app);

    it("searches from the box of any page without a script, and the result leads to its section", async () => {
      const term = word("heron");
      const siteId = await searchableSite(term);
      const page = await browser.open(`/s/${siteId}/fish/`, { javaScriptEnabled: false });
      await page.getByRole("searchbox", { name: "Search this site" }).fill(term);
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(`**/s/${siteId}/search/?q=${term}`);
      await page.getByRole("link", { name: `Birds › The ${term}` }).click();
      await page.waitForURL(`**/s/${siteId}/birds/#the-${term}`);
      expect(await page.locator(`#the-${term}`).isVisible()).toBe(true);
    });
  });
});
