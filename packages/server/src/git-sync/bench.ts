/**
 * Git Sync figures on SQLite and PostgreSQL, against the issue's target: a sync of a 1,000-page
 * repository with one changed file takes under 5 s. A repository in GitBook's format (SUMMARY.md of
 * ten `##` groups, pages nested two levels in places, ~1.5 KB of Markdown a page with links between
 * pages, a README, a few images under `.gitbook/assets/`) is served by a real Git server on loopback
 * (`git http-backend`, net/git-server.ts) and synchronized through the API and the job runner, as a
 * server does: the first import (cold cache, empty space), rounds of a developer's one-file commit
 * imported, rounds of a one-page change request merged and exported (one commit of one file), then an
 * import and an export with nothing new. Each figure is the time from the request (for an export, from
 * the merge's answer) to the job runner's idleness; each step is checked on the way. Before the
 * measurements, a small repository is imported into another space, so that the first database's
 * figures do not carry the process's warm-up (the measured space's Git cache is still cold). Run
 * after a build: `node packages/server/dist/git-sync/bench.js` (PAGES and ROUNDS tune it; the
 * PostgreSQL run needs QUIRE_TEST_DATABASE_URL, and uses a schema of its own that it drops). The content
 * engine's limits are the server's, from the same variables, and each database gets a new engine (no
 * analysis cached by the other's run).
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { join, posix } from "node:path";
import { createApp } from "../app.js";
import { serverTasks } from "../areas.js";
import { generateSecretKey } from "../auth/secret-key.js";
import { issueToken } from "../auth/tokens.js";
import { onBenchDatabases } from "../bench/databases.js";
import { directoryBlobStore } from "../blobs/blobs.js";
import { createOrganization } from "../commands/create-organization.js";
import { configFromEnv } from "../config.js";
import { contentEngine, useContentLimits } from "../content/engine/index.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { type Db, migrate } from "../db/database.js";
import { createJobRunner } from "../jobs/runner.js";
import type { NetworkPolicy } from "../net/fetch.js";
import { gitSettingsFrom } from "../net/git.js";
import { type GitServer, startGitServer } from "../net/git-server.js";
import { insertSpace } from "../spaces/index.js";
import { createUser } from "../users/index.js";

const PAGES = Number(process.env.PAGES ?? 1_000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const GROUP_NAMES = [
  "Getting started",
  "Guides",
  "API reference",
  "Integrations",
  "Administration",
  "Security",
  "Deployment",
  "Troubleshooting",
  "Tutorials",
  "Release notes",
];
const PER_GROUP = Math.ceil(PAGES / GROUP_NAMES.length);
const GROUPS = Math.ceil(PAGES / PER_GROUP);
const IMAGES = 5;
const TARGET_MS = 5_000;
const USER = "quire-bot";
const PASSWORD = "bench-token-value";
const REF = "refs/heads/main";
const loopback: NetworkPolicy = { allowedPrivateAddresses: ["127.0.0.1"] };

/** A deterministic generator, so that both databases get the same repository. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const VOCABULARY = (
  "the a service request token space page user team branch commit deploy server client cache " +
  "database query index record field option setting value default limit timeout retry webhook " +
  "event payload header response error status access role member organization project release " +
  "version update configure install enable disable create delete rename move publish review " +
  "merge import export sync backup restore monitor alert metric log trace secret key policy"
).split(" ");
const VERBS = ["Configure", "Install", "Manage", "Understand", "Deploy", "Monitor", "Secure", "Migrate"];
const NOUNS = ["webhooks", "tokens", "spaces", "teams", "backups", "releases", "queries", "alerts"];

interface BenchPage {
  index: number;
  title: string;
  /** The file, from the repository's root. */
  path: string;
  /** The index of its parent page, or null at the top of its group. */
  parent: number | null;
  group: number;
}

/** Each group's pages: every tenth one has three children, the third of which has a child of its own. */
function pageList(): BenchPage[] {
  const pages: BenchPage[] = [];
  for (let index = 0; index < PAGES; index++) {
    const group = Math.floor(index / PER_GROUP);
    const local = index % PER_GROUP;
    const title = `${VERBS[index % VERBS.length]} ${NOUNS[Math.floor(index / VERBS.length) % NOUNS.length]} ${index}`;
    const slug = title.toLowerCase().replaceAll(" ", "-");
    const inTen = local % 10;
    const parent = inTen >= 1 && inTen <= 3 ? index - inTen : inTen === 4 ? index - 1 : null;
    const groupSlug = (GROUP_NAMES[group] as string).toLowerCase().replaceAll(" ", "-");
    const path =
      parent === null
        ? `${groupSlug}/${slug}.md`
        : `${(pages[parent] as BenchPage).path.replace(/\.md$/, "")}/${slug}.md`;
    pages.push({ index, title, path, parent, group });
  }
  return pages;
}

function sentence(next: () => number, length: number): string {
  const words = Array.from({ length }, () => VOCABULARY[Math.floor(next() * VOCABULARY.length)] as string);
  const text = words.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** The marker a round rewrites: the last line of every page. */
const REVISION = /^Revision \d+[^\n]*$/m;

/** About 1.5 KB of Markdown: front matter on some, a list, a code block, a hint on some, links, an image on some. */
function pageBody(page: BenchPage, pages: readonly BenchPage[], next: () => number): string {
  const dir = posix.dirname(page.path);
  const link = (target: BenchPage) => `[${target.title}](${posix.relative(dir, target.path)})`;
  const pick = () => pages[Math.floor(next() * pages.length)] as BenchPage;
  const parts: string[] = [];
  if (page.index % 5 === 0) parts.push(`---\ndescription: ${sentence(next, 10)}.\n---\n`);
  parts.push(`# ${page.title}\n`, `${sentence(next, 36)}.\n`, "## Overview\n", `${sentence(next, 30)}.\n`);
  parts.push(
    `${[
      `* ${sentence(next, 6)}`,
      `* **${sentence(next, 2)}**: ${sentence(next, 8)}`,
      `  * ${sentence(next, 5)}`,
      `* ${sentence(next, 7)}`,
      `* ${sentence(next, 9)}`,
    ].join("\n")}\n`,
  );
  parts.push(
    "## Example\n",
    `${[
      "```bash",
      `quire ${VOCABULARY[page.index % VOCABULARY.length]} --space docs --limit ${page.index}`,
      `export QUIRE_TOKEN="$(cat ~/.quire/token)"`,
      `curl -H "Authorization: Bearer $QUIRE_TOKEN" https://quire.example.com/v1/spaces`,
      "```",
    ].join("\n")}\n`,
  );
  if (page.index % 3 === 0) parts.push(`{% hint style="info" %}\n${sentence(next, 12)}.\n{% endhint %}\n`);
  if (page.index % 20 === 7)
    parts.push(
      `![${sentence(next, 3)}](${posix.relative(dir, `.gitbook/assets/diagram-${page.index % IMAGES}.png`)})\n`,
    );
  parts.push(`${sentence(next, 30)}.\n`);
  parts.push(
    "## See also\n",
    `${[pick(), pick(), pick()].map((target) => `* ${link(target)}`).join("\n")}\n`,
  );
  parts.push("Revision 0 of this page.\n");
  return parts.join("\n");
}

function summary(pages: readonly BenchPage[]): string {
  const depth = (page: BenchPage): number =>
    page.parent === null ? 0 : 1 + depth(pages[page.parent] as BenchPage);
  let text = "# Table of contents\n\n* [Welcome](README.md)\n";
  for (let group = 0; group < GROUPS; group++) {
    text += `\n## ${GROUP_NAMES[group]}\n\n`;
    for (const page of pages.filter((p) => p.group === group))
      text += `${"  ".repeat(depth(page))}* [${page.title}](${page.path})\n`;
  }
  return text;
}

function repositoryFiles(pages: readonly BenchPage[]): Record<string, string | Buffer> {
  const next = random(42);
  const files: Record<string, string | Buffer> = {
    ".gitbook.yaml": "root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n",
    "README.md": `# Welcome\n\n${sentence(next, 30)}.\n\n${Array.from(
      { length: GROUPS },
      (_, g) => `* [${GROUP_NAMES[g]}](${(pages[g * PER_GROUP] as BenchPage).path})`,
    ).join("\n")}\n`,
    "SUMMARY.md": summary(pages),
  };
  for (const page of pages) files[page.path] = pageBody(page, pages, next);
  for (let i = 0; i < IMAGES; i++)
    files[`.gitbook/assets/diagram-${i}.png`] = Buffer.concat([
      Buffer.from("89504e470d0a1a0a", "hex"),
      randomBytes(20_000 + 5_000 * i),
    ]);
  return files;
}

interface Figures {
  firstImport: number;
  imports: number[];
  exports: number[];
  noopImport: number;
  noopExport: number;
}

function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`Check failed: ${what}`);
}

interface TreePage {
  id: string;
  title: string;
  type: string;
  pages?: TreePage[];
}
const flatten = (pages: readonly TreePage[]): TreePage[] =>
  pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

async function run(label: string, db: Db, git: GitServer, directory: string): Promise<Figures> {
  // A new content engine (threads, cache of analyses): none of the previous run's work is reused.
  await useContentLimits(configFromEnv(process.env).content);
  await migrate(db);
  const clock = systemClock;
  const ids = timeOrderedIds();
  const secretKey = generateSecretKey();
  const blobs = directoryBlobStore(join(directory, "blobs"));
  // A cache of this run's own: the first import's is cold. No polling: only what the bench asks runs.
  const gitSettings = gitSettingsFrom(
    {
      cacheDirectory: join(directory, "git-cache"),
      timeoutMs: 120_000,
      maxBytes: 256 * 1024 * 1024,
      pollMs: 0,
    },
    loopback,
  );
  const app = createApp({
    db,
    clock,
    ids,
    secretKey,
    publicUrl: "http://quire.bench",
    files: { blobs, maxUploadBytes: 25 * 1024 * 1024 },
    network: loopback,
    git: gitSettings,
  });
  const jobs = createJobRunner({
    db,
    clock,
    ids,
    tasks: serverTasks({ network: loopback, git: gitSettings, secretKey, blobs }),
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  try {
    const user = await createUser(db, { clock, ids }, { email: "bench@example.com", displayName: "Bench" });
    const organization = await createOrganization(db, { clock, ids }, user.id, { title: "Bench" });
    const token = await issueToken(db, { clock, ids }, user.id, "bench");
    const api = async (method: string, path: string, body?: unknown, expected = 200) => {
      const res = await fetch(`${origin}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body !== undefined && { "content-type": "application/json" }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status !== expected)
        throw new Error(`${method} ${path}: ${res.status}, ${expected} expected: ${text.slice(0, 500)}`);
      return text ? JSON.parse(text) : undefined;
    };
    const newSpace = async (title: string, position: number) =>
      (
        await insertSpace(
          db,
          { clock, ids },
          {
            organization_id: organization.id,
            parent_id: null,
            title,
            emoji: "",
            visibility: "private",
            edit_mode: "live",
            default_level: "read",
            position,
          },
        )
      ).id;
    const repositoryUrl = (name: string) => {
      const url = new URL(git.url(name));
      url.username = USER;
      url.password = PASSWORD;
      return url.href;
    };
    /** The time from the request to the runner's idleness, checked to have run exactly one job. */
    const sync = async (spaceId: string, direction: "import" | "export", url: string) => {
      const started = performance.now();
      await api(
        "POST",
        `/v1/spaces/${spaceId}/git/${direction}`,
        { url, ref: REF, ...(direction === "export" && { commitMessage: "Docs from Quire" }) },
        204,
      );
      const ran = await jobs.runUntilIdle();
      const ms = performance.now() - started;
      check(ran === 1, `one job for the ${direction} (${ran} ran)`);
      return ms;
    };
    const operation = async (spaceId: string) =>
      (await api("GET", `/v1/spaces/${spaceId}/git/info`)).operation;
    const expectSuccess = async (spaceId: string, direction: string, commit: string | null) => {
      const latest = await operation(spaceId);
      check(
        latest?.state === "success" && latest.direction === direction && latest.commit === commit,
        `the ${direction} succeeded at ${commit}: ${JSON.stringify(latest)}`,
      );
    };

    // The periodic tasks' first runs, then a small import: what the process warms up is not measured.
    await jobs.runUntilIdle();
    const warmRepository = `warm-up-${label}`;
    await git.createRepository(warmRepository, {
      "README.md": "# Welcome\n\nHello.\n",
      "SUMMARY.md":
        "# Table of contents\n\n* [Welcome](README.md)\n\n## Guides\n\n* [Start](guides/start.md)\n",
      "guides/start.md": "# Start\n\n* One\n* Two\n\n```sh\nquire\n```\n",
    });
    const warmSpace = await newSpace("Warm-up", 0);
    await sync(warmSpace, "import", repositoryUrl(warmRepository));
    await expectSuccess(warmSpace, "import", await git.head(warmRepository));

    const pages = pageList();
    const files = repositoryFiles(pages);
    const bodies = new Map(pages.map((page) => [page.index, files[page.path] as string]));
    const bytes = pages.reduce((sum, page) => sum + (bodies.get(page.index) as string).length, 0);
    const name = `docs-${label}`;
    await git.createRepository(name, files);
    const url = repositoryUrl(name);
    const spaceId = await newSpace("Docs", 1);
    console.log(
      `${label}: ${PAGES} pages (${GROUPS} groups, ${Math.round(bytes / PAGES)} bytes a page on average), ` +
        `${Object.keys(files).length} files, ${ROUNDS} rounds`,
    );

    // 1. The first import, into an empty space, from a cold cache.
    const firstImport = await sync(spaceId, "import", url);
    await expectSuccess(spaceId, "import", await git.head(name));
    const tree = flatten((await api("GET", `/v1/spaces/${spaceId}/content/pages`)).pages);
    check(
      tree.length === PAGES + GROUPS + 1,
      `${PAGES} pages, ${GROUPS} groups and the README imported (${tree.length} pages)`,
    );
    check(tree.filter((page) => page.type === "group").length === GROUPS, `${GROUPS} groups`);
    const idOf = new Map(tree.map((page) => [page.title, page.id]));
    const pageMarkdown = async (page: BenchPage) =>
      (
        await api(
          "GET",
          `/v1/spaces/${spaceId}/content/page/${idOf.get(page.title) as string}?format=markdown`,
        )
      ).markdown as string;
    console.log(`  first import: ${Math.round(firstImport)} ms`);

    // 2. A developer's commit of one page, imported.
    const imports: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const page = pages[(round * 149 + 7) % PAGES] as BenchPage;
      const line = `Revision ${round + 1} of this page, edited in Git by a developer.`;
      const body = (bodies.get(page.index) as string).replace(REVISION, line);
      bodies.set(page.index, body);
      const commit = await git.commitFiles(name, { [page.path]: body }, `Edit ${page.title}`);
      imports.push(await sync(spaceId, "import", url));
      await expectSuccess(spaceId, "import", commit);
      check((await pageMarkdown(page)).includes(line), `${page.title} has the commit's body`);
    }
    console.log(`  one-file imports: ${imports.map(Math.round).join(", ")} ms`);

    // 3. A change request editing one page, merged: its export is queued by the merge.
    const exports: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const page = pages[(round * 211 + 53) % PAGES] as BenchPage;
      const line = `Revision ${round + 1} of this page, edited in Quire.`;
      const markdown = (await pageMarkdown(page)).replace(REVISION, line);
      check(markdown.includes(line), `${page.title}'s body has its revision line`);
      const before = await git.head(name);
      const cr = await api(
        "POST",
        `/v1/spaces/${spaceId}/change-requests`,
        { subject: `Edit ${page.title}` },
        201,
      );
      await api("POST", `/v1/spaces/${spaceId}/change-requests/${cr.number}/content`, {
        changes: [{ type: "update_page", page: idOf.get(page.title), markdown }],
      });
      await api("POST", `/v1/spaces/${spaceId}/change-requests/${cr.number}/merge`);
      const started = performance.now();
      const ran = await jobs.runUntilIdle();
      exports.push(performance.now() - started);
      check(ran === 1, `one job for the merge's export (${ran} ran)`);
      const head = await git.head(name);
      check(head !== before && head !== null, "the merge's export pushed a commit");
      await expectSuccess(spaceId, "export", head);
      check((await git.commitCount(name)) === 1 + ROUNDS + round + 1, "one commit a merge");
      const changed = await git.changedPaths(name, head);
      check(
        changed.length === 1 && changed[0] === page.path,
        `the export changed ${page.path} alone: ${changed.join(", ")}`,
      );
      // Once: reading the repository's files costs a process a file.
      if (round === 0)
        check(
          (await git.readFiles(name))[page.path]?.toString().includes(line),
          `${page.path} holds the edit`,
        );
    }
    console.log(`  one-file exports: ${exports.map(Math.round).join(", ")} ms`);

    // 4. Nothing new either way.
    const head = await git.head(name);
    const noopImport = await sync(spaceId, "import", url);
    await expectSuccess(spaceId, "import", head);
    const noopExport = await sync(spaceId, "export", url);
    await expectSuccess(spaceId, "export", head);
    check((await git.head(name)) === head, "the export with nothing new made no commit");
    console.log(`  no-op import: ${Math.round(noopImport)} ms, no-op export: ${Math.round(noopExport)} ms`);
    return { firstImport, imports, exports, noopImport, noopExport };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => {
  const s = sorted(values);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

function report(results: [string, Figures][]) {
  const rows: [string, (f: Figures) => number][] = [
    ["first import (cold cache, empty space)", (f) => f.firstImport],
    ["one-file import, min", (f) => Math.min(...f.imports)],
    ["one-file import, median", (f) => median(f.imports)],
    [`one-file import, max of ${ROUNDS}`, (f) => Math.max(...f.imports)],
    ["one-file export (merge), min", (f) => Math.min(...f.exports)],
    ["one-file export (merge), median", (f) => median(f.exports)],
    [`one-file export (merge), max of ${ROUNDS}`, (f) => Math.max(...f.exports)],
    ["import, nothing new", (f) => f.noopImport],
    ["export, nothing new", (f) => f.noopExport],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(`\nGit Sync of a ${PAGES}-page repository, ms`);
  console.log(`${"".padEnd(width)}  ${results.map(([label]) => label.padStart(10)).join("  ")}`);
  for (const [name, value] of rows)
    console.log(
      `${name.padEnd(width)}  ${results.map(([, f]) => String(Math.round(value(f))).padStart(10)).join("  ")}`,
    );
  console.log(`\nTarget: a one-file sync under ${TARGET_MS} ms (median)`);
  for (const [label, f] of results)
    for (const [what, values] of [
      ["import", f.imports],
      ["export", f.exports],
    ] as const) {
      const ms = median(values);
      console.log(`  ${label} ${what}: ${Math.round(ms)} ms, ${ms < TARGET_MS ? "met" : "MISSED"}`);
    }
}

// The content engine's limits as the server takes them (QUIRE_CONTENT_TIMEOUT_MS…): a repository is read
// and written as one task of its pool, whose time limit grows with the repository's pages.
const { content } = configFromEnv(process.env);
console.log(
  `content pool: ${content.pool.threads} threads, ${content.pool.timeoutMs} ms a task (QUIRE_CONTENT_TIMEOUT_MS)`,
);
console.log(
  `load average at start: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
const git = await startGitServer({ username: USER, password: PASSWORD });
const results: [string, Figures][] = [];
try {
  await onBenchDatabases("git-sync", async (kind, db, directory) => {
    results.push([kind === "sqlite" ? "SQLite" : "PostgreSQL", await run(kind, db, git, directory)]);
  });
  report(results);
  console.log(
    `load average at end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
} finally {
  await git.close();
  await contentEngine().close();
}
