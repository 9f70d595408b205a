import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  flatten,
  newSpaceContent,
} from "../change-requests/testing.js";
import type { JobRunner } from "../jobs/runner.js";
import { type GitServer, startGitServer } from "../net/git-server.js";
import { siteVisits } from "../sites/testing.js";
import { corpusFiles, corpusMissing } from "../testing/corpora.js";
import { loopbackOnly, serverJobRunner } from "../testing/jobs.js";

/**
 * A real GitBook Git Sync repository (a product's public docs: 222 pages, 178 assets, images as GitBook
 * writes them), imported, published and crawled as a reader would.
 */
const BUNDLE = "bugsplat-docs.bundle";
const missing = corpusMissing(BUNDLE);

/** An image of `.gitbook/assets` as GitBook writes one: HTML, or a Markdown destination (in `<…>` when it has spaces). */
const IMAGE_OF_ASSETS =
  /src="[^"]*\.gitbook\/assets\/|\]\((?:<[^>\n]*\.gitbook\/assets\/[^>\n]*>|[^\s)<]*\.gitbook\/assets\/[^\s)]*)\)/g;

const USER = "quire-bot";
const PASSWORD = "corpus-token-value";

let s: ContentScenario;
let git: GitServer;
let jobs: JobRunner;
beforeAll(async () => {
  if (missing) return;
  git = await startGitServer({ username: USER, password: PASSWORD });
  s = await createContentScenario();
  jobs = serverJobRunner(s.t, loopbackOnly);
});
afterAll(async () => {
  await git?.close();
  await s?.t.close();
});
const { siteApi, sitePath, crawl, visit } = siteVisits(() => s);

describe.skipIf(missing)("a real GitBook repository, imported and published", () => {
  it("shows every image and keeps every link alive, prints no GitBook tag", {
    timeout: 300_000,
  }, async () => {
    const files = corpusFiles(BUNDLE);
    await git.createRepository("bugsplat", files);
    const url = new URL(git.url("bugsplat"));
    url.username = USER;
    url.password = PASSWORD;
    const space = await newSpaceContent(s);
    await s.t.request
      .post(`/v1/spaces/${space.spaceId}/git/import`)
      .set(s.admin.auth)
      .send({ url: url.href, ref: "refs/heads/main" })
      .expect(204);
    await jobs.runUntilIdle();
    const site = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, { spaces: [space.spaceId] });
    await siteApi("post", sitePath(site.id, "/publish"));

    const root = `/s/${site.id}`;
    const pages = await crawl(root, { navigation: true });
    expect(pages.size).toBeGreaterThan(200);
    // The repository's Markdown of each page, by its path on the site.
    const sources = new Map<string, string>();
    for (const page of flatten(await space.pages()))
      if (page.type === "document")
        sources.set(`${root}/${page.path}/`, (await space.page(page.id)).markdown);
    let shown = 0;
    for (const [path, html] of pages) {
      const main = /<main.*<\/main>/s.exec(html)?.[0] ?? "";
      expect(main, path).not.toContain("{%");
      // The first page, served at the site's root too, is checked at its own path.
      if (path === `${root}/`) continue;
      // Each image the page's Markdown names in `.gitbook/assets`, as HTML or Markdown, is its file (the
      // crawl loaded it); one line of the repository writes `](… (1).png>)`, which CommonMark reads as
      // text, as GitHub shows it.
      const source = sources.get(path);
      expect(source, path).toBeDefined();
      const named = source?.match(IMAGE_OF_ASSETS)?.length ?? 0;
      const files = [...main.matchAll(/<img [^>]*src="([^"]+)"/g)].filter(([, src]) =>
        src?.includes("/files/"),
      );
      expect(files.length, path).toBe(named);
      shown += files.length;
      // The page's Markdown on the site names the same files.
      const markdown = (await visit(`${path.replace(/\/$/, "")}.md`).expect(200)).text;
      expect(markdown.match(IMAGE_OF_ASSETS), path).toBeNull();
    }
    console.log(`${pages.size} pages crawled, ${shown} images of the repository shown`);
  });
});
