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
/** GitBook's own product documentation, as its Git Sync writes it. */
const DOCUMENTATION = "gitbook-documentation.bundle";

/** An image of `.gitbook/assets` as GitBook writes one: HTML, or a Markdown destination (in `<…>` when it has spaces). */
const IMAGE_OF_ASSETS =
  /src="[^"]*\.gitbook\/assets\/|\]\((?:<[^>\n]*\.gitbook\/assets\/[^>\n]*>|[^\s)<]*\.gitbook\/assets\/[^\s)]*)\)/g;

const USER = "quire-bot";
const PASSWORD = "corpus-token-value";

let s: ContentScenario;
let git: GitServer;
let jobs: JobRunner;
beforeAll(async () => {
  if (missing && corpusMissing(DOCUMENTATION)) return;
  git = await startGitServer({ username: USER, password: PASSWORD });
  s = await createContentScenario();
  jobs = serverJobRunner(s.t, loopbackOnly);
});
afterAll(async () => {
  await git?.close();
  await s?.t.close();
});
const { siteApi, sitePath, crawl, visit } = siteVisits(() => s);

/** A new space of the corpus `bundle`, served as the repository `name` and imported with Git Sync. */
async function importedBundle(name: string, bundle: string) {
  await git.createRepository(name, corpusFiles(bundle));
  const url = new URL(git.url(name));
  url.username = USER;
  url.password = PASSWORD;
  const space = await newSpaceContent(s);
  await s.t.request
    .post(`/v1/spaces/${space.spaceId}/git/import`)
    .set(s.admin.auth)
    .send({ url: url.href, ref: "refs/heads/main" })
    .expect(204);
  await jobs.runUntilIdle();
  return space;
}

describe.skipIf(missing)("a real GitBook repository, imported and published", () => {
  it("shows every image and keeps every link alive, prints no GitBook tag", {
    timeout: 300_000,
  }, async () => {
    const space = await importedBundle("bugsplat", BUNDLE);
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

/**
 * GitBook's own documentation, imported with Git Sync and edited as GitBook's tools edit a page, through
 * the API: each page's JSON document sent back as it came, and with one word added to one paragraph (the
 * first, at whatever depth, that ends in plain text).
 */
describe.skipIf(corpusMissing(DOCUMENTATION))("GitBook's documentation, edited through its documents", () => {
  it("gives every page back as it was, and an edit of a paragraph changes its line only, by the word added", {
    timeout: 600_000,
  }, async () => {
    const space = await importedBundle("documentation", DOCUMENTATION);
    const pages = flatten(await space.pages()).filter((page) => page.type === "document");
    expect(pages.length).toBeGreaterThan(150);
    const before = new Map<string, string>();
    const documents = new Map<string, Record<string, unknown>>();
    for (const page of pages) {
      before.set(page.id, (await space.page(page.id)).markdown);
      const { body } = await s.t.request
        .get(`/v1/spaces/${space.spaceId}/content/page/${page.id}?format=document`)
        .set(s.admin.auth)
        .expect(200);
      documents.set(page.id, body.document);
    }
    /** The pages' Markdown once `documentOf` each is sent, in batches, in a change request of its own. */
    const sent = async (documentOf: (id: string) => unknown) => {
      const cr = await space.createChangeRequest();
      const changes = pages.flatMap((page) => {
        const document = documentOf(page.id);
        return document === undefined
          ? []
          : [{ operation: "update_page", page: page.id, document: { document } }];
      });
      for (let at = 0; at < changes.length; at += 20)
        await space.edit(cr.number, changes.slice(at, at + 20) as never);
      const after = new Map<string, string>();
      for (const page of pages) after.set(page.id, (await space.page(page.id, cr.number)).markdown);
      return after;
    };

    const unchanged = await sent((id) => documents.get(id));
    const identical = pages.filter((page) => unchanged.get(page.id) === before.get(page.id)).length;

    const edited = new Set<string>();
    const withEdit = await sent((id) => {
      const document = structuredClone(documents.get(id));
      if (!document || !addWordToParagraph(document)) return undefined;
      edited.add(id);
      return document;
    });
    const local = [...edited].filter((id) => {
      const [was, is] = [before.get(id)?.split("\n") ?? [], withEdit.get(id)?.split("\n") ?? []];
      const changed = is.flatMap((line, i) => (line === was[i] ? [] : [i]));
      return (
        was.length === is.length &&
        changed.length === 1 &&
        is[changed[0] as number]?.replace(" edited", "") === was[changed[0] as number]
      );
    }).length;
    console.log(
      `${pages.length} pages of GitBook's documentation through the API: ${identical} given back as they were, ` +
        `${local} of ${edited.size} edits changed only the line edited`,
    );
    expect(identical).toBe(pages.length);
    expect(local / edited.size).toBeGreaterThanOrEqual(0.99);
  });
});

/**
 * Adds " edited" to the first paragraph, depth first, that ends in text without marks (so that the
 * word lands at the end of its last line); false when the document has none.
 */
function addWordToParagraph(node: Record<string, unknown>): boolean {
  if (node.type === "paragraph" && Array.isArray(node.nodes)) {
    const last = node.nodes.at(-1) as { object?: string; leaves?: { text: string; marks: unknown[] }[] };
    const leaf = last?.object === "text" ? last.leaves?.at(-1) : undefined;
    if (leaf && leaf.marks.length === 0 && leaf.text.trim() !== "") {
      leaf.text = `${leaf.text} edited`;
      return true;
    }
  }
  for (const key of ["nodes", "fragments"]) {
    const children = node[key];
    if (Array.isArray(children))
      for (const child of children) if (addWordToParagraph(child as Record<string, unknown>)) return true;
  }
  return false;
}
