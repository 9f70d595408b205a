/**
 * The app's speed in Chromium (issue 51, "Fast"): what the first screen after sign-in transfers and how
 * long it takes with a cold cache, how long moving between pages of a space takes warm, and how a
 * space of APP_PAGES pages and an organization of APP_MEMBERS members behave. A benchmark, not a test:
 * it asserts nothing, it prints figures.
 *
 * The database is seeded in this process (the owner, the members, a session for the owner's cookie),
 * then the real app runs in a child process of its own (targets.ts) on it, on SQLite; the spaces and
 * their pages are made through the API. Debian's Chromium (playwright-core) opens the app with the
 * session cookie: each cold round in a new browser context (an empty cache). The first screen is timed
 * in the page, from its navigation's start (`performance.now()`), as a person signing in meets it.
 *
 * Run after a build: `npm run bench:app` in packages/server (`node dist/bench/app.js`).
 * APP_PAGES (5000), APP_MEMBERS (10000), APP_ROUNDS (cold rounds, 5), APP_SWITCHES (page switches, 30).
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { addMembership } from "../members/index.js";
import { createUser } from "../users/index.js";
import { apiClient, flatPages, type PageNode, seedOwner, seedPages } from "./seed.js";
import { startTarget } from "./server.js";
import { median, ms, p95 } from "./stats.js";

const PAGES = Number(process.env.APP_PAGES ?? 5000);
const MEMBERS = Number(process.env.APP_MEMBERS ?? 10_000);
const ROUNDS = Number(process.env.APP_ROUNDS ?? 5);
const SWITCHES = Number(process.env.APP_SWITCHES ?? 30);
const CHROMIUM = process.env.QUIRE_CHROMIUM ?? "/usr/bin/chromium";

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const body = (title: string) =>
  `# ${title}\n\nA paragraph of **${title}**, with text to read.\n\n## Details\n\nMore.\n`;

/** The members, written with the owner before the server starts. */
const seedMembers: Parameters<typeof seedOwner>[1] = async (db, services, organizationId) => {
  const joinedAt = new Date().toISOString();
  for (let i = 0; i < MEMBERS; i += 500)
    await db.transaction().execute(async (tx) => {
      for (let j = i; j < Math.min(i + 500, MEMBERS); j++) {
        const user = await createUser(tx, services, {
          displayName: `Member ${String(j).padStart(5, "0")}`,
          email: `member${j}@example.com`,
        });
        await addMembership(tx, services, { organizationId, userId: user.id, role: "read", joinedAt });
      }
    });
};

/** Bytes received by kind of resource (script, stylesheet, document, fetch…), headers and body as sent. */
function transferSizes(page: Page) {
  const sizes = new Map<string, number>();
  const pending: Promise<void>[] = [];
  page.on("requestfinished", (request) => {
    pending.push(
      request.sizes().then(({ responseBodySize, responseHeadersSize }) => {
        const kind = request.resourceType();
        sizes.set(kind, (sizes.get(kind) ?? 0) + responseBodySize + responseHeadersSize);
      }),
    );
  });
  return async () => {
    await Promise.all(pending);
    return sizes;
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "quire-bench-app-"));
  const { firstRun, secret } = await seedOwner(dir, seedMembers);
  const target = await startTarget({ kind: "quire", database: dir, validateResponses: false });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const call = apiClient(target.url, firstRun.token);
    const org = firstRun.organizationId;
    const handbook = await call<{ id: string }>("POST", `orgs/${org}/spaces`, { title: "Handbook" });
    await seedPages(call, handbook.id, 60, body);
    const large = await call<{ id: string }>("POST", `orgs/${org}/spaces`, { title: "Large" });
    await seedPages(call, large.id, PAGES, body);
    const handbookPages = flatPages(
      (await call<{ pages: PageNode[] }>("GET", `spaces/${handbook.id}/content/pages`)).pages,
    );

    const context = async () => {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await ctx.addCookies([{ name: "quire_session", value: secret, url: target.url }]);
      return ctx;
    };

    // 1. The first screen, cold: from asking for /app/ to the Content navigation listing the spaces.
    const firstScreen: number[] = [];
    /** The same, counted here from before `goto`: a new tab's start in a new context included. */
    const withNewTab: number[] = [];
    let sizes = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      const ctx = await context();
      const page = await ctx.newPage();
      const measured = transferSizes(page);
      const start = performance.now();
      await page.goto(`${target.url}/app/`);
      // Timed in the page, from its navigation's start (the redirect after sign-in lands there) to the
      // navigation's link painted: a polling in the page, so no round trip to this process is counted.
      const painted = await page.waitForFunction(
        () => {
          const nav = document.querySelector('nav[aria-label="Content"]');
          const shown = Array.from(nav?.querySelectorAll("a") ?? []).some(
            (a) => a.textContent === "Handbook",
          );
          return shown ? performance.now() : false;
        },
        undefined,
        { polling: "raf" },
      );
      firstScreen.push(Number(await painted.jsonValue()));
      withNewTab.push(performance.now() - start);
      await page.waitForLoadState("networkidle");
      sizes = await measured();
      await ctx.close();
    }

    // 2. Moving between pages of a space, warm: a click in the Pages tree to the page's title in main.
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${target.url}/app/spaces/${handbook.id}`);
    const tree = page.getByRole("tree", { name: "Pages" });
    await tree.waitFor();
    const switches: number[] = [];
    const visible = handbookPages.filter((p) => p.title.startsWith("Chapter")).slice(0, SWITCHES);
    for (const next of [...visible, ...visible]) {
      const link = tree.getByRole("treeitem", { name: next.title, exact: true });
      await link.hover();
      await page.waitForTimeout(50);
      const start = performance.now();
      await link.click();
      await page
        .getByRole("main")
        .getByRole("heading", { level: 1, name: next.title, exact: true })
        // The first: a body may begin with a heading of the same words.
        .first()
        .waitFor();
      switches.push(performance.now() - start);
    }
    const warmSwitches = switches.slice(visible.length);

    // 3. The large space: its tree shown, how many rows are in the document, and its last row reached.
    const start = performance.now();
    await page.goto(`${target.url}/app/spaces/${large.id}`);
    const largeTree = page.getByRole("tree", { name: "Pages" });
    await largeTree.getByRole("treeitem").first().waitFor();
    const largeShown = performance.now() - start;
    const rowsInDocument = await largeTree.getByRole("treeitem").count();
    await largeTree.getByRole("treeitem").first().focus();
    const endStart = performance.now();
    await page.keyboard.press("End");
    const lastTop = `Chapter ${Math.ceil(PAGES / 10) - 1}`;
    await largeTree.getByRole("treeitem", { name: lastTop, exact: true }).waitFor();
    const largeEnd = performance.now() - endStart;

    // 4. The members list: its first rows, and how many are in the document.
    const membersStart = performance.now();
    await page.goto(`${target.url}/app/orgs/${org}/people/members`);
    const members = page.getByRole("list", { name: "Members" });
    await members.getByRole("listitem").first().waitFor();
    const membersShown = performance.now() - membersStart;
    const memberRows = await members.getByRole("listitem").count();
    await ctx.close();

    const scripts = sizes.get("script") ?? 0;
    console.log(`\nThe app in Chromium (${CHROMIUM}), on SQLite, loopback; ${ROUNDS} cold rounds\n`);
    console.log("First screen after sign-in, cold cache (transferred, compressed as sent):");
    for (const [kind, bytes] of [...sizes].sort((a, b) => b[1] - a[1]))
      console.log(`  ${kind.padEnd(12)} ${kb(bytes)}`);
    console.log(`  JavaScript of the first screen: ${kb(scripts)} (target: at most 250 KB)`);
    console.log(
      `  time to the Content navigation, from the navigation's start: median ${ms(median(firstScreen))}, max ${ms(Math.max(...firstScreen))} (target: under 1 s)`,
    );
    console.log(`  the same with a new tab's start: median ${ms(median(withNewTab))}`);
    console.log(
      `\nMoving between pages of a space (click to the page's title), ${warmSwitches.length} switches:`,
    );
    console.log(`  first visits: median ${ms(median(switches.slice(0, visible.length)))}`);
    console.log(
      `  warm: median ${ms(median(warmSwitches))}, p95 ${ms(p95(warmSwitches))} (target: under 100 ms)`,
    );
    console.log(`\nA space of ${PAGES} pages:`);
    console.log(`  tree shown in ${ms(largeShown)}; ${rowsInDocument} tree rows in the document`);
    console.log(`  End to its last top-level page: ${ms(largeEnd)}`);
    console.log(`\nAn organization of ${MEMBERS + 1} members:`);
    console.log(`  first rows shown in ${ms(membersShown)}; ${memberRows} member rows in the document`);
  } finally {
    await browser.close();
    target.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
