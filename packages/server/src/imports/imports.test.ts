import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  expectError,
  flatten,
  newSpaceContent,
} from "../change-requests/testing.js";
import { pngOf } from "../files/testing.js";
import { createFetcher, publicAddressesOnly } from "../net/fetch.js";
import { startTestServer, type TestServer } from "../net/test-server.js";
import { createTestApp, type TestUser } from "../testing/harness.js";
import { nestPages, readImport } from "./crawl.js";
import { robotsRules } from "./robots.js";

type Page = Schema<"RevisionPage">;

const html = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title} | Site</title></head><body>
  <nav><a href="/docs/">Home</a> <a href="/docs/a.html">A</a></nav>
  <main><article>${body}</article></main>
  <footer>Copyright nobody</footer></body></html>`;

/** A small website: its pages by path, with their media type. */
const site: Record<string, { type: string; body: string | Buffer }> = {
  "/robots.txt": { type: "text/plain", body: "User-agent: *\nDisallow: /docs/private\n" },
  "/docs/": {
    type: "text/html; charset=utf-8",
    body: html(
      "Home",
      `<h1>Welcome</h1><p>Start <strong>here</strong>, then read <a href="a.html">A</a>,
       <a href="/docs/private.html">private</a>, <a href="/outside.html">outside</a>,
       <a href="https://elsewhere.example/">elsewhere</a> and <a href="#top">top</a>.</p>
       <p><img src="logo.png" alt="Logo"> <img src="/missing.png" alt="Gone"></p>`,
    ),
  },
  "/docs/a.html": {
    type: "text/html",
    body: html(
      "A",
      `<h1>Page A</h1><p>About A, with <a href="a/b.html">B</a>.</p><pre><code class="language-js">let a = 1;</code></pre>
       <ul><li>one</li><li>two</li></ul><img src="logo.png" alt="Logo again">`,
    ),
  },
  "/docs/a/b.html": { type: "text/html", body: html("B", "<h1>Page B</h1><p>Deeper.</p>") },
  "/docs/private.html": { type: "text/html", body: html("Private", "<h1>Private</h1><p>Hidden.</p>") },
  "/outside.html": { type: "text/html", body: html("Outside", "<h1>Outside</h1>") },
  "/docs/logo.png": { type: "image/png", body: pngOf(4, 3) },
  "/notes.md": { type: "text/markdown", body: "# Release notes\n\n- Faster *search*.\n" },
  "/single.html": { type: "text/html", body: html("Single", "<h1>Single page</h1><p>Only this.</p>") },
  "/image.png": { type: "image/png", body: pngOf(1, 1) },
};
// A site of many linked pages, to hit the page limit.
// A site whose second page never answers.
site["/slow/index.html"] = {
  type: "text/html",
  body: html("Slow", `<h1>Slow site</h1><p><a href="hangs.html">hangs</a></p>`),
};
for (let i = 0; i < 25; i++)
  site[`/many/p${i}.html`] = {
    type: "text/html",
    body: html(`P${i}`, `<h1>P${i}</h1><p><a href="p${i + 1}.html">next</a></p>`),
  };

let s: ContentScenario;
let server: TestServer;
const requested: string[] = [];
beforeAll(async () => {
  s = await createContentScenario();
  server = await startTestServer((req, res) => {
    requested.push(req.url ?? "");
    if (req.url === "/slow/hangs.html") return;
    const page = site[req.url ?? ""];
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": page.type }).end(page.body);
  });
});
afterAll(async () => {
  await server.close();
  await s.t.close();
});

function importInto(spaceId: string, cr: string, user: TestUser, body: object) {
  return s.t.request
    .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content/import`)
    .set(user.auth)
    .send(body);
}

/** A new space with an open change request holding one page of its own. */
async function changeRequest() {
  const space = await newSpaceContent(s);
  const cr = await space.createChangeRequest();
  await space.edit(cr.number, [{ type: "insert_page", title: "Existing", markdown: "Kept." }]);
  return { space, cr: await space.getChangeRequest(cr.number) };
}

const titlesOf = (pages: readonly Page[]): unknown[] =>
  pages.map((page) => (page.pages?.length ? [page.title, titlesOf(page.pages)] : page.title));

describe("POST …/change-requests/{changeRequestId}/content/import", () => {
  it("imports a website as one revision: pages nested by URL, images as files, robots.txt and scope respected", async () => {
    const { space, cr } = await changeRequest();
    const res = await importInto(space.spaceId, cr.id, s.editor, {
      url: `${server.origin}/docs/`,
      source: "website",
    }).expect(201);
    // Three pages (private is disallowed, outside and elsewhere are out of scope) and two images
    // tried, one of them missing.
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 4, totalResources: 5 });
    expect(res.headers.location).toBe(
      `http://quire.test/v1/spaces/${space.spaceId}/revisions/${res.body.revision}`,
    );
    expect(requested).not.toContain("/docs/private.html");
    expect(requested).not.toContain("/outside.html");

    const after = await space.getChangeRequest(cr.number);
    expect(after.revision).toBe(res.body.revision);
    const pages = await space.pages(cr.number);
    expect(titlesOf(pages)).toEqual(["Existing", ["Welcome", [["Page A", ["Page B"]]]]]);
    const byTitle = Object.fromEntries(flatten(pages).map((page) => [page.title, page.id]));
    const files = (
      await s.t.request
        .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/files`)
        .set(s.reader.auth)
        .expect(200)
    ).body as { count: number; items: Schema<"RevisionFile">[] };
    expect(files.count).toBe(1);
    const [logo] = files.items;
    expect(logo).toMatchObject({
      name: "logo.png",
      contentType: "image/png",
      dimensions: { width: 4, height: 3 },
    });

    const welcome = await space.page(byTitle.Welcome as string, cr.number);
    expect(welcome.markdown).toContain("Start **here**");
    expect(welcome.markdown).toContain(`![Logo](/files/${logo?.id})`);
    expect(welcome.markdown).not.toContain("missing.png");
    expect(welcome.markdown).not.toContain("Copyright nobody");
    expect(welcome.markdown).not.toMatch(/^# Welcome/);
    // Links between imported pages go to the pages they became; others keep the source's absolute URL.
    expect(welcome.markdown).toContain(`[A](/pages/${byTitle["Page A"]})`);
    expect(welcome.markdown).toContain(`[outside](${server.origin}/outside.html)`);
    const a = await space.page(byTitle["Page A"] as string, cr.number);
    expect(a.markdown).toContain(`[B](/pages/${byTitle["Page B"]})`);
    expect(a.markdown).toContain("```js\nlet a = 1;\n```");
    expect(a.markdown).toContain("- one\n- two");
    expect(a.markdown).toContain(`![Logo again](/files/${logo?.id})`);
    // The revision lists the file it brought.
    const revision = (
      await s.t.request
        .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content`)
        .set(s.reader.auth)
        .expect(200)
    ).body as Schema<"Revision">;
    expect(revision.files.map((file) => file.id)).toEqual([logo?.id]);
  });

  it("stops at 20 pages", async () => {
    const { space, cr } = await changeRequest();
    const res = await importInto(space.spaceId, cr.id, s.admin, {
      url: `${server.origin}/many/p0.html`,
      source: "website",
    }).expect(201);
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 20, totalResources: 20 });
    expect(flatten(await space.pages(cr.number))).toHaveLength(21);
  });

  it("imports one markdown file or one HTML page", async () => {
    const { space, cr } = await changeRequest();
    await importInto(space.spaceId, cr.id, s.admin, {
      url: `${server.origin}/notes.md`,
      source: "markdown",
    }).expect(201);
    await importInto(space.spaceId, cr.id, s.admin, {
      url: `${server.origin}/single.html`,
      source: "html",
    }).expect(201);
    const pages = flatten(await space.pages(cr.number));
    expect(pages.map((page) => page.title)).toEqual(["Existing", "Release notes", "Single page"]);
    // Markdown is kept as written, without its title heading.
    expect((await space.page(pages[1]?.id as string, cr.number)).markdown).toBe("- Faster *search*.");
    expect((await space.page(pages[2]?.id as string, cr.number)).markdown).toBe("Only this.");
  });

  it("changes nothing when nothing can be read: 400 with the reason", async () => {
    const { space, cr } = await changeRequest();
    const bad = async (body: object, text: string) => {
      const res = await importInto(space.spaceId, cr.id, s.admin, body).expect(400);
      expectError(res.body, 400, text);
    };
    await bad({ url: `${server.origin}/nothing.html`, source: "website" }, "404");
    await bad({ url: `${server.origin}/image.png`, source: "html" }, "not HTML");
    await bad({ url: `${server.origin}/docs/private.html`, source: "website" }, "robots.txt");
    await bad({ url: `${server.origin}/notes.md`, source: "docx" }, "website, markdown, html");
    await bad({ url: "ftp://example.com/file", source: "website" }, "http");
    await importInto(space.spaceId, cr.id, s.admin, { url: "not a url", source: "website" }).expect(400);
    await importInto(space.spaceId, cr.id, s.admin, { url: `${server.origin}/`, source: "word" }).expect(400);
    expect((await space.getChangeRequest(cr.number)).revision).toBe(cr.revision);
  });

  it("refuses private addresses with the default network policy", async () => {
    const t = await createTestApp({ network: publicAddressesOnly });
    try {
      const { organizationId, admin } = await t.organization();
      const scenario = { ...s, t, organizationId, admin };
      const space = await newSpaceContent(scenario);
      const cr = await space.createChangeRequest();
      const before = requested.length;
      const res = await t.request
        .post(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/import`)
        .set(admin.auth)
        .send({ url: `${server.origin}/docs/`, source: "website" })
        .expect(400);
      expectError(res.body, 400, "Nothing could be imported");
      expect(requested.length).toBe(before);
    } finally {
      await t.close();
    }
  });

  it("answers 404 in another organization, 403 to a reader, 409 for a merged change request", async () => {
    const { space, cr } = await changeRequest();
    const body = { url: `${server.origin}/single.html`, source: "html" };
    expectError((await importInto(space.spaceId, cr.id, s.outsider, body).expect(404)).body, 404);
    expectError((await importInto(space.spaceId, cr.id, s.reader, body).expect(403)).body, 403);
    await space.merge(cr.number);
    expectError(
      (await importInto(space.spaceId, cr.id, s.admin, body).expect(409)).body,
      409,
      "merged",
      "change_request_closed",
    );
  });
});

describe("readImport", () => {
  it("imports what it read when its time runs out", async () => {
    const started = Date.now();
    const imported = await readImport(
      createFetcher({ allowedPrivateAddresses: ["127.0.0.1"] }),
      "website",
      new URL(`${server.origin}/slow/index.html`),
      { maxFileBytes: 1000, nextId: () => "id", budgetMs: 300 },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(imported.pages.map((page) => page.title)).toEqual(["Slow site"]);
    expect(imported.total).toBe(2);
  });
});

describe("robotsRules", () => {
  it("applies Quire's group or else `*`, the longest match winning, allow on a tie", () => {
    const rules = robotsRules(
      "User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*.pdf$\n",
    );
    expect(rules("/docs")).toBe(true);
    expect(rules("/private/x")).toBe(false);
    expect(rules("/private/open/x")).toBe(true);
    expect(rules("/a/file.pdf")).toBe(false);
    expect(rules("/a/file.pdf?x")).toBe(true);
    expect(robotsRules("User-agent: Quire\nDisallow: /\nUser-agent: *\nAllow: /")("/x")).toBe(false);
    expect(robotsRules("User-agent: *\nDisallow:\n")("/x")).toBe(true);
  });
});

describe("nestPages", () => {
  it("puts each page under the nearest page above its URL, parents first", () => {
    const at = (path: string) => ({ url: new URL(`http://site.test${path}`) });
    const pages = [at("/docs/a/b.html"), at("/docs/"), at("/docs/a.html"), at("/other/c.html")];
    expect(nestPages(pages)).toEqual([
      { index: 1, parent: null },
      { index: 3, parent: null },
      { index: 2, parent: 1 },
      { index: 0, parent: 2 },
    ]);
  });
});
