import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContentScenario, createContentScenario, insertPage } from "../change-requests/testing.js";
import { editMainContent } from "../content/testing.js";
import { siteVisits } from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());
const { sitePath, visit, publishedSite } = siteVisits(() => s);

/**
 * A published site whose space holds, in order: the group "Zebragroup basics" (Setup, then the link
 * "Quaggalink site" out of the site), the link "Back home" (relative), an empty group "Nothing
 * yet", and "Intro".
 */
async function groupedSite() {
  const { site, content } = await publishedSite([insertPage("Intro", "Welcome.")]);
  await editMainContent(
    s.t.db,
    { spaceId: content.spaceId, revisionId: s.t.ids.next(), now: s.t.clock.now().toISOString() },
    (draft, storage) => {
      const group = (id: string, title: string, index: number) =>
        draft.insert({ id, title, parent: null, placement: { index }, document: null, kind: "group" });
      const link = (id: string, title: string, parent: string | null, href: string) =>
        draft.insert({ id, title, parent, placement: {}, document: null, kind: "link", href });
      group("basics", "Zebragroup basics", 0);
      draft.insert({
        id: "setup",
        title: "Setup",
        parent: "basics",
        placement: {},
        document: storage.saveDocument("Set it up."),
      });
      link("out", "Quaggalink site", "basics", "https://example.com/docs");
      link("home", "Back home", null, "/");
      link("bad", "Evil", null, "javascript:alert(1)");
      group("empty", "Nothing yet", 4);
    },
  );
  return site;
}

/** The `<aside>` of a page: the site's navigation. */
const navigation = (html: string) => /<aside>.*<\/aside>/s.exec(html)?.[0] ?? "";

describe("group and link pages on a published site", () => {
  it("show in the navigation as a heading over the group's pages, and as a link to the href", async () => {
    const site = await groupedSite();
    const root = `/s/${site.id}`;
    // The space's root is its first document, inside the group.
    const home = await visit(`${root}/`).expect(200);
    expect(home.text).toContain("<title>Setup | Handbook</title>");
    expect(navigation(home.text)).toContain(
      '<li class="nav-group"><span class="nav-group-title">Zebragroup basics</span><ul>' +
        `<li><a href="${root}/zebragroup-basics/setup/" aria-current="page">Setup</a></li>` +
        '<li><a href="https://example.com/docs" rel="noopener">Quaggalink site</a></li></ul></li>',
    );
    // A relative href is the editor's, as written; one that would run a script leads nowhere.
    expect(navigation(home.text)).toContain('<li><a href="/">Back home</a></li><li><span>Evil</span></li>');
    expect(home.text).not.toContain("javascript:");
    // A group is no page to go to: its title only, in the breadcrumbs; the pager skips groups and links.
    expect(home.text).toContain("<ol><li>Zebragroup basics</li></ol>");
    const pager = /<nav class="pager".*?<\/nav>/s.exec(home.text)?.[0];
    expect(pager).toBe(
      `<nav class="pager" aria-label="Previous and next pages"><a class="next" rel="next" href="${root}/intro/"><span>Next</span>Intro</a></nav>`,
    );
    const intro = await visit(`${root}/intro`).expect(200);
    expect(intro.text).toContain(`<a class="prev" rel="prev" href="${root}/zebragroup-basics/setup/">`);
    expect(intro.text).not.toContain('rel="next"');
  });

  it("have no page of their own: a group's URL leads to its first page, a link's is not found", async () => {
    const site = await groupedSite();
    const root = `/s/${site.id}`;
    const group = await visit(`${root}/zebragroup-basics`).expect(302);
    expect(group.headers.location).toBe(`${root}/zebragroup-basics/setup/`);
    for (const path of ["zebragroup-basics/quaggalink-site", "back-home", "nothing-yet"]) {
      const missing = await visit(`${root}/${path}`).expect(404);
      expect(missing.text).toContain("<h1>Page not found</h1>");
      expect(navigation(missing.text)).toContain("Zebragroup basics");
    }
    for (const path of ["zebragroup-basics.md", "zebragroup-basics/quaggalink-site.md"])
      await visit(`${root}/${path}`).expect(404);
    expect((await visit(`${root}/zebragroup-basics/setup.md`).expect(200)).text).toBe("Set it up.");
  });

  it("are left out of the sitemap, llms.txt and search", async () => {
    const site = await groupedSite();
    const root = `http://quire.test/s/${site.id}`;
    const sitemap = (await visit(`/s/${site.id}/sitemap.xml`).expect(200)).text;
    expect([...sitemap.matchAll(/<loc>(.*?)<\/loc>/g)].map(([, loc]) => loc)).toEqual([
      `${root}/zebragroup-basics/setup/`,
      `${root}/intro/`,
    ]);
    const llms = (await visit(`/s/${site.id}/llms.txt`).expect(200)).text;
    expect(llms).toContain(`- [Setup](${root}/zebragroup-basics/setup.md)`);
    for (const title of ["Zebragroup", "Quaggalink", "Back home", "Nothing yet"])
      expect(llms).not.toContain(title);
    const full = (await visit(`/s/${site.id}/llms-full.txt`).expect(200)).text;
    expect([...full.matchAll(/^# (.*)$/gm)].map(([, title]) => title)).toEqual([
      "Handbook",
      "Setup",
      "Intro",
    ]);

    const search = async (query: string) =>
      (await s.t.request.post(sitePath(site.id, "/search")).set(s.reader.auth).send({ query }).expect(200))
        .body;
    expect((await search("Zebragroup")).count).toBe(0);
    expect((await search("Quaggalink")).count).toBe(0);
    expect((await search("Setup")).items[0].pages.map((page: { title: string }) => page.title)).toEqual([
      "Setup",
    ]);
    const page = (await visit(`/s/${site.id}/search?q=Zebragroup`).expect(200)).text;
    expect(page).toContain("<p>No results for “Zebragroup”.</p>");
  });
});
