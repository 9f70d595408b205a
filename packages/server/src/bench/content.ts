/**
 * Content storage and read figures on SQLite, for a space of 1,000 pages: what one `update_page`
 * adds to the database besides its new body, and how long `listPages` and `getPageById` take (its body
 * as Markdown, and as GitBook's document, the default), the first request of a fresh server process
 * and then warm. Run after a build:
 * `node packages/server/dist/bench/content.js` (PAGES, ROUNDS and BODY_BYTES tune it).
 */

import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { bootstrapOwner } from "../bootstrap.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { type Db, isPostgresLocation, migrate, openDatabase } from "../db/database.js";
import { insertSpace } from "../spaces/index.js";
import { urlsFor } from "../urls.js";
import { apiClient, flatPages, type PageNode, seedPages } from "./seed.js";
import { freshPostgresDatabase, startTarget } from "./server.js";

const PAGES = Number(process.env.PAGES ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 200);
const UPDATES = 50;
const BODY_BYTES = Number(process.env.BODY_BYTES ?? 600);

const children: ChildProcess[] = [];

/** A Quire server in a process of its own (see targets.ts); its base URL. */
async function startServer(database: string): Promise<string> {
  const { child, url } = await startTarget({ kind: "quire", database, validateResponses: false });
  children.push(child);
  return url;
}

function stopServers() {
  for (const child of children.splice(0)) {
    child.removeAllListeners("exit");
    child.kill();
  }
}

const body = (label: string) =>
  `# ${label}\n\n${"Some text of the page, line by line.\n".repeat(Math.ceil(BODY_BYTES / 38))}`;

/** Bytes of the rows of the content tables, as stored values (keys and text). */
async function storedBytes(db: Db) {
  const row = await sql<{ nodes: number; documents: number; revisions: number }>`select
      (select coalesce(sum(length(space_id) + length(hash) + length(body)), 0) from content_nodes) as nodes,
      (select coalesce(sum(length(space_id) + length(hash) + length(markdown)), 0) from content_documents) as documents,
      (select coalesce(sum(length(id) + length(space_id) + coalesce(length(parent_id), 0)
        + coalesce(length(merge_parent_id), 0) + length(type) + coalesce(length(root), 0) + length(created_at)), 0)
        from revisions) as revisions`.execute(db);
  return row.rows[0] as { nodes: number; documents: number; revisions: number };
}

/** The database file's size, the write-ahead log folded in first. */
async function fileBytes(db: Db): Promise<number> {
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  const count = await sql<{ page_count: number }>`pragma page_count`.execute(db);
  const size = await sql<{ page_size: number }>`pragma page_size`.execute(db);
  return Number(count.rows[0]?.page_count) * Number(size.rows[0]?.page_size);
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN).toFixed(1);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms`;
}

/** The figures on one database: a SQLite directory, or a PostgreSQL URL (reads only: storage is SQLite's). */
async function measure(location: string) {
  const sqlite = !isPostgresLocation(location);
  const db = openDatabase({ location });
  try {
    await migrate(db);
    const services = { clock: systemClock, ids: timeOrderedIds(), urls: urlsFor("http://localhost:8080") };
    const firstRun = await bootstrapOwner(db, services, "bench@example.com");
    if (!firstRun) throw new Error("expected an empty database");
    const space = await insertSpace(db, services, {
      organization_id: firstRun.organizationId,
      parent_id: null,
      title: "A large space",
      emoji: "",
      visibility: "private",
      edit_mode: "live",
      default_level: "read",
      position: 0,
    });
    let call = apiClient(await startServer(location), firstRun.token);
    await seedPages(call, space.id, PAGES, body);
    const { pages } = await call<{ pages: PageNode[] }>("GET", `spaces/${space.id}/content/pages`);
    const all = flatPages(pages);
    console.log(
      `\nContent on ${sqlite ? "SQLite" : "PostgreSQL"}: a space of ${all.length} pages (${pages.length} at the top level), bodies of about ${BODY_BYTES} bytes`,
    );

    // One update_page in its change request, then the same change after each of 50 more.
    const cr = await call<{ number: number }>("POST", `spaces/${space.id}/change-requests`, {});
    const update = (i: number) =>
      call("POST", `spaces/${space.id}/change-requests/${cr.number}/content`, {
        changes: [
          { type: "update_page", page: all[(i * 97) % all.length]?.id, markdown: body(`Edited ${i}`) },
        ],
      });
    if (sqlite) await storageFigures(db, update);

    // Reads: in a fresh server process whose HTTP path is warmed by another request, so that the first
    // read shows the cost of reading the content from the database (nothing cached), then warm.
    const page = all[Math.floor(all.length / 2)]?.id;
    const listPages = () => call("GET", `spaces/${space.id}/content/pages`);
    const getPage = () => call("GET", `spaces/${space.id}/content/page/${page}?format=markdown`);
    // GitBook's default: the body as its JSON document, converted once per body by the content engine.
    const getDocument = () => call("GET", `spaces/${space.id}/content/page/${page}`);
    const cold = async (run: () => Promise<unknown>) => {
      stopServers();
      call = apiClient(await startServer(location), firstRun.token);
      for (let i = 0; i < 20; i++) await call("GET", `spaces/${space.id}`);
      return timed(run);
    };
    const warm = async (run: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) times.push(await timed(run));
      return times;
    };
    const coldPage = await cold(getPage);
    const warmPage = await warm(getPage);
    const coldDocument = await cold(getDocument);
    const warmDocument = await warm(getDocument);
    // Bodies not converted yet, once the engine's threads are up, then after they went idle.
    const documentOf = (i: number) => () =>
      call("GET", `spaces/${space.id}/content/page/${all[(i * 31) % all.length]?.id}`);
    const newBodies: number[] = [];
    for (let i = 1; i <= 20; i++) newBodies.push(await timed(documentOf(i)));
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const afterIdle = await timed(documentOf(21));
    const coldList = await cold(listPages);
    const warmList = await warm(listPages);
    console.log(
      `\nlistPages (${all.length} pages, nested): uncached ${coldList.toFixed(1)} ms; then ${summary(warmList)}`,
    );
    console.log(
      `getPageById (format=markdown): uncached ${coldPage.toFixed(1)} ms; then ${summary(warmPage)}`,
    );
    console.log(
      `getPageById (document): uncached ${coldDocument.toFixed(1)} ms; then ${summary(warmDocument)}`,
    );
    console.log(
      `getPageById (document) of a body not converted yet: ${summary(newBodies)}; after 6 s idle ${afterIdle.toFixed(1)} ms`,
    );
  } finally {
    stopServers();
    await db.destroy();
  }
}

/** What one `update_page`, then 50 more, add to the SQLite file. */
async function storageFigures(db: Db, update: (i: number) => Promise<unknown>) {
  const before = await storedBytes(db);
  await update(0);
  const after = await storedBytes(db);
  const added = after.nodes - before.nodes + (after.revisions - before.revisions);
  console.log(
    `\none update_page: ${added} bytes of page-tree nodes and revision row (${after.nodes - before.nodes} + ${
      after.revisions - before.revisions
    }), besides the new body (${after.documents - before.documents} bytes)`,
  );
  const fileBefore = await fileBytes(db);
  const documentsBefore = (await storedBytes(db)).documents;
  for (let i = 1; i <= UPDATES; i++) await update(i);
  const growth = (await fileBytes(db)) - fileBefore;
  const bodies = (await storedBytes(db)).documents - documentsBefore;
  console.log(
    `${UPDATES} more, one a request: the file grew ${(growth / UPDATES / 1024).toFixed(1)} KiB an update on average,` +
      ` ${((growth - bodies) / UPDATES / 1024).toFixed(1)} KiB besides the bodies (indexes and page slack included)`,
  );
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "quire-bench-content-"));
  try {
    await measure(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const postgresUrl = process.env.QUIRE_TEST_DATABASE_URL;
  if (postgresUrl) {
    const postgres = await freshPostgresDatabase(postgresUrl);
    try {
      await measure(postgres.location);
    } finally {
      await postgres.drop();
    }
  }
  console.log(
    "\n(whole HTTP round trips on this machine, token check and JSON included; uncached: the first read of the" +
      " content in a fresh server process, after other requests warmed its code)",
  );
}

await main();
