import { execFileSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  expectError,
  flatten,
  newSpaceContent,
  updatePage,
} from "../change-requests/testing.js";
import { numberEvents } from "../events/numbering.js";
import type { JobRunner } from "../jobs/runner.js";
import type { NetworkPolicy } from "../net/fetch.js";
import { type GitServer, startGitServer } from "../net/git-server.js";
import { siteVisits } from "../sites/testing.js";
import { testGitSettings } from "../testing/harness.js";
import { loopbackOnly, serverJobRunner } from "../testing/jobs.js";

const USER = "quire-bot";
const PASSWORD = "s3cret-token-value";

/** A repository as GitBook's Git Sync writes one: every element of its format. */
const GITBOOK_REPOSITORY = {
  ".gitbook.yaml":
    "root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n  old/start: guides/start.md\n",
  "README.md":
    "---\ndescription: What Acme does.\ncoverY: 0\n---\n\n# Welcome\n\nStart with [the guide](guides/start.md), [its first step](guides/start.md#first-step) above all.\n",
  "SUMMARY.md":
    "# Table of contents\n\n* [Welcome](README.md)\n\n## Guides\n\n* [Getting started](guides/start.md)\n  * [Install](guides/start/install.md)\n* [Acme website](https://acme.example.com)\n",
  "guides/start.md":
    '# Getting started\n\n{% hint style="info" %}\nRead this first.\n{% endhint %}\n\n## First step\n\n![Logo](../.gitbook/assets/logo.png)\n',
  "guides/start/install.md": "---\nhidden: true\n---\n\n# Install\n\n```sh\nnpm install acme\n```\n",
  ".gitbook/assets/logo.png": Buffer.from(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000",
    "hex",
  ),
};

let s: ContentScenario;
let git: GitServer;
let jobs: JobRunner;
let repositories = 0;

beforeAll(async () => {
  git = await startGitServer({ username: USER, password: PASSWORD });
  s = await createContentScenario();
  jobs = serverJobRunner(s.t, loopbackOnly);
});
afterAll(async () => {
  await git.close();
  await s.t.close();
});
const { siteApi, sitePath, visit, crawl } = siteVisits(() => s);

/** A repository of its own for a test, and the URL with the bot's credentials in it. */
async function newRepository(files: Record<string, string | Buffer> = GITBOOK_REPOSITORY) {
  const name = `docs-${++repositories}`;
  await git.createRepository(name, files);
  const url = new URL(git.url(name));
  url.username = USER;
  url.password = PASSWORD;
  return { name, url: url.href };
}

async function gitInfo(spaceId: string) {
  return (await s.t.request.get(`/v1/spaces/${spaceId}/git/info`).set(s.admin.auth).expect(200)).body;
}

/** Asks for an operation as the space's admin and runs the job runner until it has nothing left. */
async function sync(
  spaceId: string,
  direction: "import" | "export",
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  await s.t.request
    .post(`/v1/spaces/${spaceId}/git/${direction}`)
    .set(s.admin.auth)
    .send({
      ref: "refs/heads/main",
      ...(direction === "export" && { commitMessage: "Docs from Quire" }),
      ...body,
    })
    .expect(204);
  await jobs.runUntilIdle();
  return (await gitInfo(spaceId)).operation;
}

/** A space imported from a new repository in GitBook's format. */
async function importedSpace() {
  const space = await newSpaceContent(s);
  const repository = await newRepository();
  const operation = await sync(space.spaceId, "import", { url: repository.url });
  expect(operation, JSON.stringify(operation)).toMatchObject({ state: "success", direction: "import" });
  return { space, repository };
}

describe("POST /v1/spaces/{spaceId}/git/import", () => {
  it("makes a repository in GitBook's format the space's content: summary groups, nesting, links, front matter, assets", async () => {
    const space = await newSpaceContent(s);
    const repository = await newRepository();
    await s.t.request
      .post(`/v1/spaces/${space.spaceId}/git/import`)
      .set(s.admin.auth)
      .send({ url: repository.url, ref: "refs/heads/main" })
      .expect(204);
    // Queued: git/info shows it running before the runner takes it.
    expect(await gitInfo(space.spaceId)).toMatchObject({
      installationStatus: "pending",
      operation: { state: "running", direction: "import", stage: "repo_fetch" },
    });
    await jobs.runUntilIdle();

    const info = await gitInfo(space.spaceId);
    expect(info).toMatchObject({
      installationId: expect.any(String),
      installationProvider: "git",
      installationStatus: "active",
      repoName: repository.name,
      ref: "refs/heads/main",
      operation: { state: "success", direction: "import", commit: await git.head(repository.name) },
    });
    // The credentials are never shown.
    expect(JSON.stringify(info)).not.toContain(PASSWORD);
    expect(info.repoURL).toBe(git.url(repository.name));
    // The stream tells it as it went: the operation, then what it changed, in one transaction each.
    await numberEvents(s.t.db);
    const events = await s.t.db
      .selectFrom("events")
      .select(["type", "data"])
      .where("space_id", "=", space.spaceId)
      .orderBy("sequence")
      .execute();
    // The first five: a poll of the branch may have run an import with nothing new since.
    expect(events.slice(0, 5).map((event) => event.type)).toEqual([
      "space_gitsync_started",
      "change_request_created",
      "change_request_merged",
      "space_content_updated",
      "space_gitsync_completed",
    ]);
    expect(JSON.parse(events[4]?.data ?? "")).toMatchObject({
      space: space.spaceId,
      direction: "import",
      state: "success",
      commit: info.operation.commit,
    });
    // Connected: the space says so, to whoever reads it.
    const read = await s.t.request.get(`/v1/spaces/${space.spaceId}`).set(s.reader.auth).expect(200);
    expect(read.body.gitSync).toEqual({
      repoName: repository.name,
      installationProvider: "git",
      url: git.url(repository.name),
      updatedAt: info.updatedAt,
    });

    const pages = await space.pages();
    expect(pages.map((page) => [page.title, page.type])).toEqual([
      ["Welcome", "document"],
      ["Guides", "group"],
    ]);
    // What follows a `##` heading in the summary is the group's.
    const guides = pages[1]?.pages ?? [];
    expect(guides.map((page) => [page.title, page.type])).toEqual([
      ["Getting started", "document"],
      ["Acme website", "link"],
    ]);
    expect(guides[0]?.pages?.map((page) => page.title)).toEqual(["Install"]);
    expect(guides[1]).toMatchObject({ href: "https://acme.example.com" });

    const byTitle = Object.fromEntries(flatten(pages).map((page) => [page.title, page.id]));
    const welcome = await space.page(byTitle.Welcome as string);
    // The front matter stays with the body (the site reads the description from it), the title heading
    // became the title.
    expect(welcome.markdown).toBe(
      "---\ndescription: What Acme does.\ncoverY: 0\n---\n\nStart with [the guide](guides/start.md), [its first step](guides/start.md#first-step) above all.\n",
    );
    const start = await space.page(byTitle["Getting started"] as string);
    expect(start.markdown).toContain('{% hint style="info" %}');

    const files = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/content/files`)
      .set(s.admin.auth)
      .expect(200);
    expect(files.body.items.map((file: { name: string }) => file.name)).toEqual(["logo.png"]);

    // Relative links between the files, and to the assets, lead to the pages and files they hold.
    expect(flatten(pages).find((page) => page.title === "Install")?.path).toBe("guides/start/install");
    const links = await s.t.request.get(`/v1/spaces/${space.spaceId}/links`).set(s.admin.auth).expect(200);
    expect(
      links.body.items.map((link: { status: string; targetReference: { kind: string } }) => [
        link.status,
        link.targetReference.kind,
      ]),
    ).toEqual([
      ["ok", "page"],
      ["ok", "file"],
    ]);
  });

  it("publishes with no broken link, anchor or image, and sends readers of `.gitbook.yaml`'s redirects on", async () => {
    const { space } = await importedSpace();
    const site = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, {
      title: "Acme",
      spaces: [space.spaceId],
    });
    await siteApi("post", sitePath(site.id, "/publish"));
    const root = `/s/${site.id}`;

    // Every page of the site, and every link and image of each that stays in the site, answers.
    const pages = await crawl(root);
    // Install is hidden (its front matter): in no navigation, but at its path.
    expect([...pages.keys()]).toEqual([`${root}/`, `${root}/guides/start/`]);
    await visit(`${root}/guides/start/install/`).expect(200);
    expect(pages.get(`${root}/guides/start/`)).toMatch(/<img [^>]*src="[^"]*logo\.png"/);

    // `redirects: old/start: guides/start.md`: the old path leads to the page of that file.
    const moved = await visit(`${root}/old/start`);
    expect(moved.status).toBe(site.visibility === "public" ? 308 : 307);
    expect(moved.headers.location).toBe(`${root}/guides/start/`);
    await visit(`${root}/old/elsewhere`).expect(404);
  });

  it("publishes GitBook's HTML images, links and integration blocks: every image loads, no tag is printed", async () => {
    const figure = (src: string, alt = "") =>
      `<figure><img src="${src}" alt="${alt}" width="563"><figcaption><p>Seen as ${alt || "a figure"}</p></figcaption></figure>`;
    const png = GITBOOK_REPOSITORY[".gitbook/assets/logo.png"];
    const space = await newSpaceContent(s);
    const repository = await newRepository({
      "README.md": `# Welcome\n\n${figure(".gitbook/assets/shot.png", "A shot")}\n\nRead <a href="guides/README.md">the guides</a>.\n`,
      "SUMMARY.md":
        "# Table of contents\n\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n  * [Getting started](guides/start.md)\n    * [Install](guides/start/install.md)\n* [Install first](guides/start/install.md#first)\n",
      "guides/README.md": `# Guides\n\n${figure("../.gitbook/assets/shot.png")}\n\n<a href="start.md">Start</a>.\n`,
      "guides/start.md": [
        "# Getting started",
        figure("../.gitbook/assets/shot.png"),
        '{% @github-files/github-code-block url="https://github.com/acme/app/blob/main/start.py" %}',
        '<picture><source srcset="../.gitbook/assets/dark.png 2x" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/shot.png" alt="Diagram"></picture>',
        '<a href="start/install.md">Install</a> next.',
      ].join("\n\n"),
      "guides/start/install.md": `# Install\n\n${figure("../../.gitbook/assets/shot.png", "Nested")}\n`,
      ".gitbook/assets/shot.png": png,
      ".gitbook/assets/dark.png": png,
    });
    const operation = await sync(space.spaceId, "import", { url: repository.url });
    expect(operation, JSON.stringify(operation)).toMatchObject({ state: "success" });
    const site = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, { spaces: [space.spaceId] });
    await siteApi("post", sitePath(site.id, "/publish"));
    const root = `/s/${site.id}`;

    const pages = await crawl(root);
    expect([...pages.keys()].sort()).toEqual(
      ["/", "/guides/", "/guides/start/", "/guides/start/install/"].map((p) => `${root}${p}`),
    );
    // The outline's link to an anchor of a page (a link page, as GitBook reads it) leads to that page.
    expect(pages.get(`${root}/`)).toMatch(
      new RegExp(`<a href="${root}/guides/start/install/#first"[^>]*>Install first</a>`),
    );
    const mains = [...pages.values()].map((html) => /<main.*<\/main>/s.exec(html)?.[0] ?? "");
    // Every image is the file's (the crawl loaded each), on every page, whatever its depth.
    const images = mains.flatMap((main) =>
      [...main.matchAll(/<img [^>]*src="([^"]+)"/g)].map(([, src]) => src),
    );
    expect(images).toHaveLength(5);
    for (const src of images) expect(src).toMatch(/^http:\/\/quire\.test\/files\//);
    for (const main of mains) {
      expect(main).not.toContain(".gitbook/assets");
      expect(main).not.toContain("{%");
    }
    const start = mains[2] as string;
    expect(start).toMatch(/<source srcset="[^"]*\/files\/[^"]+ 2x"/);
    expect(start).toContain('href="https://github.com/acme/app/blob/main/start.py"');
    expect(start).toContain(`href="${root}/guides/start/install/"`);
    // Its Markdown points at the same files and pages, its text otherwise as the repository has it.
    const markdown = (await visit(`${root}/guides/start.md`).expect(200)).text;
    expect(markdown).not.toContain(".gitbook/assets");
    expect(markdown).toMatch(/^<figure><img src="http:\/\/quire\.test\/files\/[^"]+" alt="" width="563">/m);
    expect(markdown).toContain(`<a href="${root}/guides/start/install/">Install</a> next.`);
    expect(markdown).toContain(
      '{% @github-files/github-code-block url="https://github.com/acme/app/blob/main/start.py" %}',
    );
  });

  it("keeps page ids across imports, and a push to the branch becomes a new revision of the space", async () => {
    const { space, repository } = await importedSpace();
    const before = flatten(await space.pages());
    await git.commitFiles(
      repository.name,
      {
        "guides/start/install.md": "---\nhidden: true\n---\n\n# Install\n\n```sh\nnpm install acme@2\n```\n",
        "guides/faq.md": "# FAQ\n\nAsk away.\n",
        "SUMMARY.md":
          "# Table of contents\n\n* [Welcome](README.md)\n\n## Guides\n\n* [Getting started](guides/start.md)\n  * [Install](guides/start/install.md)\n* [FAQ](guides/faq.md)\n* [Acme website](https://acme.example.com)\n",
      },
      "Add a FAQ",
    );
    const operation = await sync(space.spaceId, "import", { url: repository.url });
    expect(operation).toMatchObject({ state: "success", commit: await git.head(repository.name) });
    const after = flatten(await space.pages());
    for (const page of before) expect(after.find((p) => p.title === page.title)?.id).toBe(page.id);
    const install = after.find((page) => page.title === "Install");
    expect((await space.page(install?.id as string)).markdown).toContain("npm install acme@2");
    expect(after.map((page) => page.title)).toContain("FAQ");
  });

  it("puts the repository's content in a change request when the space changed as well, and overwrites nothing", async () => {
    const { space, repository } = await importedSpace();
    const welcomeId = flatten(await space.pages()).find((page) => page.title === "Welcome")?.id as string;
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [updatePage(welcomeId, { markdown: "Edited in Quire.\n" })]);
    await space.merge(cr.number);
    await git.commitFiles(
      repository.name,
      { "README.md": "# Welcome\n\nEdited in Git.\n" },
      "Edit the readme",
    );

    const operation = await sync(space.spaceId, "import", { url: repository.url });
    expect(operation).toMatchObject({ state: "success", changeRequest: expect.any(String) });
    // Main content keeps the edit made in Quire.
    expect((await space.page(welcomeId)).markdown).toBe("Edited in Quire.\n");
    const changeRequest = await space.getChangeRequest(operation.changeRequest as string);
    expect(changeRequest.status).toBe("open");
    expect((await space.page(welcomeId, changeRequest.number)).markdown).toBe("Edited in Git.\n");
    // Both sides changed the same page: merging it is refused with the conflict listed.
    const merge = await space.merge(changeRequest.number, s.admin, 412);
    expect(merge.body.error.conflicts).toEqual([expect.objectContaining({ page: welcomeId })]);
  });

  it("fails with a clear error and changes nothing for a wrong password, an unknown repository, or a private address", async () => {
    const space = await newSpaceContent(s);
    const repository = await newRepository();
    const wrong = new URL(repository.url);
    wrong.password = "not-the-password";
    const refused = await sync(space.spaceId, "import", { url: wrong.href });
    expect(refused).toMatchObject({ state: "failure", error: expect.stringMatching(/credentials/i) });
    expect(JSON.stringify(await gitInfo(space.spaceId))).not.toContain("not-the-password");

    const missing = await sync(space.spaceId, "import", { url: `${git.url("nothing-here")}` });
    expect(missing).toMatchObject({ state: "failure", error: expect.any(String) });
    expect(await space.pages()).toEqual([]);
  });

  it("answers 400 for a URL Git cannot use or a ref that is no branch, and changes nothing", async () => {
    const space = await newSpaceContent(s);
    for (const body of [
      { url: "ftp://example.com/repo.git", ref: "refs/heads/main" },
      { url: "not a url", ref: "refs/heads/main" },
      { url: "https://example.com/repo.git", ref: "refs/heads/../main" },
      { url: "https://example.com/repo.git", ref: "refs/tags/v1" },
      { url: "https://example.com/repo.git" },
    ]) {
      const res = await s.t.request
        .post(`/v1/spaces/${space.spaceId}/git/import`)
        .set(s.admin.auth)
        .send(body);
      expect(res.status).toBe(400);
      expectError(res.body, 400);
    }
    await s.t.request.get(`/v1/spaces/${space.spaceId}/git/info`).set(s.admin.auth).expect(404);
    const read = await s.t.request.get(`/v1/spaces/${space.spaceId}`).set(s.admin.auth).expect(200);
    expect(read.body).not.toHaveProperty("gitSync");
  });

  it("answers 401 without a token, 404 to another organization's member, 403 to a reader", async () => {
    const space = await newSpaceContent(s);
    const body = { url: "https://example.com/repo.git", ref: "refs/heads/main" };
    const path = `/v1/spaces/${space.spaceId}/git/import`;
    await s.t.request.post(path).send(body).expect(401);
    await s.t.request.post(path).set(s.outsider.auth).send(body).expect(404);
    const forbidden = await s.t.request.post(path).set(s.reader.auth).send(body).expect(403);
    expectError(forbidden.body, 403);
    await s.t.request.get(`/v1/spaces/${space.spaceId}/git/info`).set(s.admin.auth).expect(404);
  });
});

// Each test starts servers of its own: a fresh database each.
describe("an import the server's limits refuse", { timeout: 30_000 }, () => {
  /** A server of its own, with its network policy and Git limits; the import's outcome there. */
  async function importOn(options: { network: NetworkPolicy; maxBytes?: number }, url: string) {
    const scenario = await createContentScenario({
      network: options.network,
      git: testGitSettings(options.network, { ...(options.maxBytes && { maxBytes: options.maxBytes }) }),
    });
    try {
      const runner = serverJobRunner(
        scenario.t,
        options.network,
        testGitSettings(options.network, { ...(options.maxBytes && { maxBytes: options.maxBytes }) }),
      );
      const space = await newSpaceContent(scenario);
      await scenario.t.request
        .post(`/v1/spaces/${space.spaceId}/git/import`)
        .set(scenario.admin.auth)
        .send({ url, ref: "refs/heads/main" })
        .expect(204);
      await runner.runUntilIdle();
      const info = await scenario.t.request
        .get(`/v1/spaces/${space.spaceId}/git/info`)
        .set(scenario.admin.auth);
      return { operation: info.body.operation, pages: await space.pages() };
    } finally {
      await scenario.t.close();
    }
  }

  it("fails for a private address the network policy does not allow, without a request to it", async () => {
    const repository = await newRepository();
    const requests = git.requests.length;
    const outcome = await importOn({ network: { allowedPrivateAddresses: [] } }, repository.url);
    expect(outcome.operation).toMatchObject({
      state: "failure",
      error: expect.stringContaining("not allowed"),
    });
    expect(outcome.pages).toEqual([]);
    expect(git.requests.length).toBe(requests);
  });

  it("fails for a repository larger than the limit, and for a host nobody answers on", async () => {
    const repository = await newRepository({ ...GITBOOK_REPOSITORY, "big.bin": randomBytes(512 * 1024) });
    const large = await importOn({ network: loopbackOnly, maxBytes: 128 * 1024 }, repository.url);
    expect(large.operation).toMatchObject({
      state: "failure",
      error: expect.stringMatching(/larger|limit/i),
    });
    expect(large.pages).toEqual([]);
    // What is outside the project directory is not synced: it does not count.
    const monorepo = await newRepository({
      ...Object.fromEntries(
        Object.entries(GITBOOK_REPOSITORY).map(([path, bytes]) => [`docs/${path}`, bytes]),
      ),
      "media/video.bin": randomBytes(300 * 1024),
    });
    const scenario = await createContentScenario({
      network: loopbackOnly,
      git: testGitSettings(loopbackOnly, { maxBytes: 128 * 1024 }),
    });
    try {
      const runner = serverJobRunner(
        scenario.t,
        loopbackOnly,
        testGitSettings(loopbackOnly, { maxBytes: 128 * 1024 }),
      );
      const space = await newSpaceContent(scenario);
      await scenario.t.request
        .post(`/v1/spaces/${space.spaceId}/git/import`)
        .set(scenario.admin.auth)
        .send({ url: monorepo.url, ref: "refs/heads/main", repoProjectDirectory: "docs" })
        .expect(204);
      await runner.runUntilIdle();
      const info = await scenario.t.request
        .get(`/v1/spaces/${space.spaceId}/git/info`)
        .set(scenario.admin.auth);
      expect(info.body.operation).toMatchObject({ state: "success" });
      expect(flatten(await space.pages()).map((page) => page.title)).toContain("Getting started");
    } finally {
      await scenario.t.close();
    }
    const unreachable = await importOn({ network: loopbackOnly }, "http://127.0.0.1:9/nothing.git");
    expect(unreachable.operation).toMatchObject({ state: "failure", error: expect.any(String) });
    expect(unreachable.pages).toEqual([]);
  });
});

describe("POST /v1/spaces/{spaceId}/git/export", () => {
  it("exports an imported space unchanged without a commit, and an edit as one commit changing exactly its file", async () => {
    const { space, repository } = await importedSpace();
    const head = await git.head(repository.name);
    const unchanged = await sync(space.spaceId, "export", { url: repository.url });
    expect(unchanged).toMatchObject({ state: "success", direction: "export", commit: head });
    expect(await git.head(repository.name)).toBe(head);

    const install = flatten(await space.pages()).find((page) => page.title === "Install")?.id as string;
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [
      updatePage(install, { markdown: "---\nhidden: true\n---\n\n```sh\nnpm install acme --save\n```\n" }),
    ]);
    await space.merge(cr.number);
    const exported = await sync(space.spaceId, "export", {
      url: repository.url,
      commitMessage: "Install with --save",
    });
    const pushed = await git.head(repository.name);
    expect(exported).toMatchObject({ state: "success", commit: pushed });
    expect(pushed).not.toBe(head);
    expect(await git.changedPaths(repository.name, pushed as string)).toEqual(["guides/start/install.md"]);
    const files = await git.readFiles(repository.name);
    expect(files["guides/start/install.md"]?.toString()).toBe(
      "---\nhidden: true\n---\n\n# Install\n\n```sh\nnpm install acme --save\n```\n",
    );
  });

  it("exports a new space to an empty repository in GitBook's format, and connects it", async () => {
    const space = await newSpaceContent(s);
    await space.seed([
      { type: "insert_page", title: "Home", markdown: "Hello.\n" },
      { type: "insert_page", title: "Guide", markdown: "Read me.\n" },
    ]);
    const name = `empty-${++repositories}`;
    await git.createEmptyRepository(name);
    const url = new URL(git.url(name));
    url.username = USER;
    url.password = PASSWORD;
    const operation = await sync(space.spaceId, "export", { url: url.href });
    expect(operation).toMatchObject({ state: "success" });
    const files = await git.readFiles(name);
    // GitBook's layout needs no `.gitbook.yaml`: none is written for it.
    expect(Object.keys(files).sort()).toEqual(["README.md", "SUMMARY.md", "guide.md"]);
    expect(files["README.md"]?.toString()).toBe("# Home\n\nHello.\n");
    expect((await gitInfo(space.spaceId)).installationStatus).toBe("active");
  });

  it("writes GitBook's documentation as it came: anchor entries as links, headings' anchors, front matter it does not read", async () => {
    const frontMatter =
      "---\nname: Inline\ndescription: >-\n  Bold, italics and\n  buttons.\ntags: [formatting]\nmetadata:\n  owner: docs\n---\n";
    const files = {
      "README.md": "# Welcome\n\nHello.\n",
      "SUMMARY.md":
        '# Table of contents\n\n* [Welcome](README.md)\n\n## Get Started <a href="#getting-started" id="getting-started"></a>\n\n* [Inline](formatting/inline.md)\n  * [Buttons](formatting/inline.md#buttons)\n',
      "formatting/inline.md": `${frontMatter}\n# Inline\n\n## Buttons\n\nPress it.\n`,
    };
    const space = await newSpaceContent(s);
    const repository = await newRepository(files);
    expect(await sync(space.spaceId, "import", { url: repository.url })).toMatchObject({ state: "success" });
    const [, group] = await space.pages();
    expect(group).toMatchObject({ type: "group", title: "Get Started", slug: "get-started" });
    const buttons = flatten(await space.pages()).find((page) => page.title === "Buttons");
    expect(buttons).toMatchObject({ type: "link", href: "formatting/inline.md#buttons" });
    expect(flatten(await space.pages()).filter((page) => page.type === "document")).toHaveLength(2);
    // Each page's file, as GitBook's API gives it: its object id (as Git itself names its bytes) and path.
    const oidOf = (bytes: string | Buffer) =>
      execFileSync("git", ["hash-object", "--stdin"], { input: bytes }).toString().trim();
    const inlinePage = flatten(await space.pages()).find((page) => page.title === "Inline");
    expect(inlinePage?.git).toEqual({
      oid: oidOf(files["formatting/inline.md"]),
      path: "formatting/inline.md",
    });

    // A merge is exported to the repository: the summary is written anew after a rename, its heading
    // and anchor entries as they were.
    const welcome = flatten(await space.pages()).find((page) => page.title === "Welcome")?.id as string;
    const cr = await space.createChangeRequest(s.editor, "Rename the welcome");
    await space.edit(cr.number, [updatePage(welcome, { title: "Hello" })], s.editor);
    await space.merge(cr.number);
    await jobs.runUntilIdle();
    const own = await git.readFiles(repository.name);
    expect(own["SUMMARY.md"]?.toString()).toBe(files["SUMMARY.md"].replace("[Welcome]", "[Hello]"));
    expect(own["formatting/inline.md"]?.toString()).toBe(files["formatting/inline.md"]);
    // The file the export wrote is the page's now.
    const hello = flatten(await space.pages()).find((page) => page.title === "Hello");
    const page = (
      await s.t.request
        .get(`/v1/spaces/${space.spaceId}/content/page/${hello?.id}`)
        .set(s.admin.auth)
        .expect(200)
    ).body;
    expect(page.git).toEqual({ oid: oidOf(own["README.md"] as Buffer), path: "README.md" });

    // To another repository, which has none of the files: each is written as it was.
    const name = `empty-${++repositories}`;
    await git.createEmptyRepository(name);
    const url = new URL(git.url(name));
    url.username = USER;
    url.password = PASSWORD;
    expect(await sync(space.spaceId, "export", { url: url.href })).toMatchObject({ state: "success" });
    const written = await git.readFiles(name);
    // Placed anew (the repository has no file of it), its content as the space holds it.
    const inline = Object.entries(written).find(([, bytes]) => bytes.toString().includes("# Inline"));
    expect(inline?.[1].toString(), Object.keys(written).join()).toBe(files["formatting/inline.md"]);
    expect(written["SUMMARY.md"]?.toString()).toContain("\n## Get Started\n");
  });

  it("refuses to overwrite commits of the branch the space does not have yet, unless forced", async () => {
    const { space, repository } = await importedSpace();
    await git.commitFiles(repository.name, { "README.md": "# Welcome\n\nChanged in Git.\n" }, "Edit");
    const head = await git.head(repository.name);
    const refused = await sync(space.spaceId, "export", { url: repository.url });
    expect(refused).toMatchObject({ state: "failure", error: expect.stringContaining("import them first") });
    expect(await git.head(repository.name)).toBe(head);
  });
});

describe("a connected space", () => {
  it("exports each merge into its main content as one commit, by the merger, named after the change request", async () => {
    const { space, repository } = await importedSpace();
    const welcome = flatten(await space.pages()).find((page) => page.title === "Welcome")?.id as string;
    const cr = await space.createChangeRequest(s.editor, "Reword the welcome");
    await space.edit(cr.number, [updatePage(welcome, { title: "Welcome aboard" })], s.editor);
    await space.merge(cr.number);
    const before = await git.commitCount(repository.name);
    await jobs.runUntilIdle();
    expect(await git.commitCount(repository.name)).toBe(before + 1);
    const head = (await git.head(repository.name)) as string;
    // The title is in the page's heading and in the summary's entry.
    expect(await git.changedPaths(repository.name, head)).toEqual(["README.md", "SUMMARY.md"]);
    expect(await git.author(repository.name, head)).toEqual({
      name: s.admin.user.display_name,
      email: s.admin.user.email,
      committer: "Quire",
      message: `Reword the welcome (#${cr.number})`,
    });
    expect((await git.readFiles(repository.name))["README.md"]?.toString()).toBe(
      "---\ndescription: What Acme does.\ncoverY: 0\n---\n\n# Welcome aboard\n\nStart with [the guide](guides/start.md), [its first step](guides/start.md#first-step) above all.\n",
    );
    expect(await gitInfo(space.spaceId)).toMatchObject({
      operation: { direction: "export", state: "success", commit: head },
    });
  });
});

describe("POST /v1/spaces/{spaceId}/git/webhook and the push webhook", () => {
  const push = (
    path: string,
    headers: Record<string, string>,
    body = JSON.stringify({ ref: "refs/heads/main" }),
  ) =>
    s.t.request
      .post(path)
      .set({ "content-type": "application/json", ...headers })
      .send(body);
  const hmac = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex");

  it("imports each push to the branch, signed as GitHub, GitLab or Gitea sign them; refuses other signatures", async () => {
    const { space, repository } = await importedSpace();
    await s.t.request.post(`/v1/spaces/${space.spaceId}/git/webhook`).set(s.reader.auth).expect(403);
    const { body: hook } = await s.t.request
      .post(`/v1/spaces/${space.spaceId}/git/webhook`)
      .set(s.admin.auth)
      .expect(200);
    expect(hook.url).toBe(`http://quire.test/git-sync/webhooks/${space.spaceId}`);
    const path = new URL(hook.url).pathname;
    const payload = JSON.stringify({ ref: "refs/heads/main", after: "abc" });

    await push(
      path,
      { "x-github-event": "push", "x-hub-signature-256": `sha256=${hmac("wrong", payload)}` },
      payload,
    ).expect(401);
    await push(path, { "x-gitlab-event": "Push Hook", "x-gitlab-token": "wrong" }, payload).expect(401);
    await push(path, { "x-github-event": "push" }, payload).expect(401);
    // A push to another branch, and a ping, are answered and ignored.
    const other = JSON.stringify({ ref: "refs/heads/draft" });
    await push(
      path,
      { "x-github-event": "push", "x-hub-signature-256": `sha256=${hmac(hook.secret, other)}` },
      other,
    ).expect(200);
    await push(
      path,
      { "x-github-event": "ping", "x-hub-signature-256": `sha256=${hmac(hook.secret, "{}")}` },
      "{}",
    ).expect(200);
    expect(await gitInfo(space.spaceId)).toMatchObject({
      operation: { direction: "import", state: "success" },
    });

    const signatures: Record<string, string>[] = [
      { "x-github-event": "push", "x-hub-signature-256": `sha256=${hmac(hook.secret, payload)}` },
      { "x-gitlab-event": "Push Hook", "x-gitlab-token": hook.secret },
      { "x-gitea-event": "push", "x-gitea-signature": hmac(hook.secret, payload) },
    ];
    for (const [i, headers] of signatures.entries()) {
      await git.commitFiles(repository.name, { "guides/faq.md": `# FAQ\n\nVersion ${i}.\n` }, `FAQ ${i}`);
      const res = await push(path, headers, payload).expect(202);
      expect(res.body).toEqual({ queued: true });
      await jobs.runUntilIdle();
      expect(await gitInfo(space.spaceId)).toMatchObject({
        operation: { direction: "import", state: "success", commit: await git.head(repository.name) },
      });
    }
    // A new secret replaces the old one.
    const { body: renewed } = await s.t.request
      .post(`/v1/spaces/${space.spaceId}/git/webhook`)
      .set(s.admin.auth)
      .expect(200);
    expect(renewed.secret).not.toBe(hook.secret);
    await push(path, signatures[0] ?? {}, payload).expect(401);
  });

  it("answers 409 for a space not connected to a repository, and 404 on the webhook of a space without one", async () => {
    const space = await newSpaceContent(s);
    const res = await s.t.request
      .post(`/v1/spaces/${space.spaceId}/git/webhook`)
      .set(s.admin.auth)
      .expect(409);
    expectError(res.body, 409);
    await push(`/git-sync/webhooks/${space.spaceId}`, {
      "x-gitlab-event": "Push Hook",
      "x-gitlab-token": "x",
    }).expect(404);
  });
});

describe("polling", () => {
  it("imports what was pushed to a connected branch once its interval has passed", async () => {
    const { space, repository } = await importedSpace();
    await jobs.runUntilIdle();
    await git.commitFiles(repository.name, { "README.md": "# Welcome\n\nPolled.\n" }, "Edit for the poll");
    s.t.clock.advance(6 * 60 * 1000);
    await jobs.runUntilIdle();
    const welcome = flatten(await space.pages()).find((page) => page.title === "Welcome")?.id as string;
    expect((await space.page(welcome)).markdown).toBe("Polled.\n");
    expect(await gitInfo(space.spaceId)).toMatchObject({
      operation: { direction: "import", state: "success", commit: await git.head(repository.name) },
    });
  });
});

describe("operations of a space", () => {
  it("run in the order of their timestamps, one at a time", async () => {
    const { space, repository } = await importedSpace();
    await git.commitFiles(repository.name, { "README.md": "# Welcome\n\nFrom Git.\n" }, "Edit");
    // The export is asked for first but happened after the push: the import runs first, then the
    // export finds nothing to push.
    await s.t.request
      .post(`/v1/spaces/${space.spaceId}/git/export`)
      .set(s.admin.auth)
      .send({
        url: repository.url,
        ref: "refs/heads/main",
        commitMessage: "x",
        timestamp: "2030-01-02T00:00:00Z",
      })
      .expect(204);
    await s.t.request
      .post(`/v1/spaces/${space.spaceId}/git/import`)
      .set(s.admin.auth)
      .send({ url: repository.url, ref: "refs/heads/main", timestamp: "2030-01-01T00:00:00Z" })
      .expect(204);
    const head = await git.head(repository.name);
    await jobs.runUntilIdle();
    const operations = await s.t.db
      .selectFrom("git_sync_operations")
      .select(["direction", "state", "commit"])
      .where("space_id", "=", space.spaceId)
      .orderBy("ordering")
      .execute();
    expect(operations.slice(-2)).toEqual([
      { direction: "import", state: "success", commit: head },
      { direction: "export", state: "success", commit: head },
    ]);
  });
});

describe("a renamed repository", () => {
  it("is followed to where it moved on the same host, and the space keeps its new URL", async () => {
    const space = await newSpaceContent(s);
    const repository = await newRepository();
    const old = `old-${repository.name}`;
    git.moveRepository(old, repository.name);
    const url = new URL(repository.url);
    url.pathname = url.pathname.replace(repository.name, old);
    const operation = await sync(space.spaceId, "import", { url: url.href });
    expect(operation, JSON.stringify(operation)).toMatchObject({ state: "success" });
    const info = await gitInfo(space.spaceId);
    expect(info.repoURL).toBe(git.url(repository.name));
    expect(info.repoName).toBe(repository.name);
    // The next operations go where it is now.
    expect(await sync(space.spaceId, "export", { url: info.repoURL })).toMatchObject({ state: "success" });
  });
});

describe("DELETE /v1/spaces/{spaceId}/git", () => {
  it("disconnects the space: its credentials go, its content stays", async () => {
    const { space } = await importedSpace();
    const pages = await space.pages();
    await s.t.request.delete(`/v1/spaces/${space.spaceId}/git`).set(s.reader.auth).expect(403);
    await s.t.request.delete(`/v1/spaces/${space.spaceId}/git`).set(s.admin.auth).expect(204);
    await s.t.request.get(`/v1/spaces/${space.spaceId}/git/info`).set(s.admin.auth).expect(404);
    // The same pages, no longer in a repository (no `git`).
    const inRepository = JSON.stringify(pages);
    expect(inRepository).toContain('"git":{"oid"');
    expect(await space.pages()).toEqual(
      JSON.parse(inRepository, (key, value) => (key === "git" ? undefined : value)),
    );
    // Nothing of the repository's access is left: no connection, no operation with its credentials.
    for (const table of ["git_sync_connections", "git_sync_operations", "git_sync_pages"] as const)
      expect(
        await s.t.db.selectFrom(table).selectAll().where("space_id", "=", space.spaceId).execute(),
      ).toEqual([]);
    await s.t.request.delete(`/v1/spaces/${space.spaceId}/git`).set(s.admin.auth).expect(204);
  });
});
