/**
 * The attacks of issue 23 at their real sizes, against a Quire server with its default content limits
 * in a child process of its own (see targets.ts): each attack is sent as an `edit` member would, and
 * while it is refused or processed the bench asks `/health` and `GET /v1/spaces/{id}` (another space)
 * every 20 ms, and reads the server process's resident memory (VmRSS) every 20 ms. One table: each
 * attack's answer and time, the polls' p99 and max latency during it, the peak RSS. Then five
 * anonymous visits of a published page whose body cannot be rendered: the engine's attempts cannot be
 * counted from outside, so each visit is timed instead (the first pays the attempt, the rest should
 * answer at once). Run after a build: `npm run bench:attacks` in packages/server
 * (`node dist/bench/attacks.js`). SQLite, and PostgreSQL too when QUIRE_TEST_DATABASE_URL is set.
 */

import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootstrapOwner } from "../bootstrap.js";
import { contentHash } from "../content/hash.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { type Db, migrate, openDatabase } from "../db/database.js";
import { insertSpace } from "../spaces/index.js";
import { urlsFor } from "../urls.js";
import { freshPostgresDatabase, startTarget } from "./server.js";

const POLL_EVERY_MS = 20;
const postgresUrl = process.env.QUIRE_TEST_DATABASE_URL;

const children: ChildProcess[] = [];

interface Server {
  url: string;
  pid: number;
}

/** A Quire server with the default limits, allowed to fetch from loopback (for the import attack). */
async function startServer(database: string): Promise<Server> {
  const { child, url } = await startTarget(
    { kind: "quire", database, validateResponses: false },
    { ...process.env, QUIRE_FETCH_ALLOW_PRIVATE: "127.0.0.1" },
  );
  children.push(child);
  if (child.pid === undefined) throw new Error("the server has no process id");
  return { url, pid: child.pid };
}

function stopServers() {
  for (const child of children.splice(0)) {
    child.removeAllListeners("exit");
    child.kill();
  }
}

interface Answer {
  status: number;
  body: unknown;
  text: string;
}

async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

function client(base: string, token: string) {
  return (method: string, path: string, json?: unknown) =>
    request(`${base}/v1/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(json !== undefined && { "content-type": "application/json" }),
      },
      ...(json !== undefined && { body: JSON.stringify(json) }),
    });
}

type Call = ReturnType<typeof client>;

/** The answer, or an error naming the request, when it is not a success. */
async function expectOk(answer: Promise<Answer>, what: string): Promise<Answer> {
  const got = await answer;
  if (got.status < 200 || got.status >= 300)
    throw new Error(`${what}: ${got.status} ${got.text.slice(0, 300)}`);
  return got;
}

/** Resident memory of a process, in bytes. */
function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** Latencies of a URL asked every 20 ms (or at once after a slower answer) until `stopped()`. */
async function poll(url: string, headers: Record<string, string>, stopped: () => boolean) {
  const times: number[] = [];
  let failures = 0;
  while (!stopped()) {
    const start = performance.now();
    try {
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (!response.ok) failures++;
    } catch {
      failures++;
    }
    const took = performance.now() - start;
    times.push(took);
    if (took < POLL_EVERY_MS) await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS - took));
  }
  return { times, failures };
}

interface Row {
  label: string;
  answer: string;
  ms: number;
  health: number[];
  read: number[];
  pollFailures: number;
  peakRss: number;
}

interface Fixture {
  server: Server;
  call: Call;
  token: string;
  organizationId: string;
  /** The space attacked, and another one whose reads are timed meanwhile. */
  spaceId: string;
  otherSpaceId: string;
  /** The space of the published site. */
  publishedSpaceId: string;
}

/** Runs `attack` while polling the server and sampling its memory; the row of the table. */
async function measure(f: Fixture, label: string, attack: () => Promise<Answer>): Promise<Row & Answer> {
  let done = false;
  const stopped = () => done;
  let peakRss = rssOf(f.server.pid);
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssOf(f.server.pid));
  }, POLL_EVERY_MS);
  const health = poll(`${f.server.url}/health`, {}, stopped);
  const read = poll(
    `${f.server.url}/v1/spaces/${f.otherSpaceId}`,
    { authorization: `Bearer ${f.token}` },
    stopped,
  );
  const start = performance.now();
  let answer: Answer;
  try {
    answer = await attack();
  } catch (error) {
    answer = { status: 0, body: undefined, text: `failed: ${(error as Error).message}` };
  } finally {
    done = true;
    clearInterval(sampler);
  }
  const ms = performance.now() - start;
  peakRss = Math.max(peakRss, rssOf(f.server.pid));
  const [h, r] = await Promise.all([health, read]);
  const type = (answer.body as { error?: { type?: string } } | undefined)?.error?.type;
  return {
    ...answer,
    label,
    answer: `${answer.status}${type ? ` ${type}` : ""}`,
    ms,
    health: h.times,
    read: r.times,
    pollFailures: h.failures + r.failures,
    peakRss,
  };
}

function quantile(times: number[], q: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const ms = (value: number) => (value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(0)} ms`);
const latencies = (times: number[]) =>
  `${quantile(times, 0.99).toFixed(0)} / ${Math.max(...times).toFixed(0)} ms (${times.length})`;

function printTable(title: string, rows: Row[]) {
  const header = ["attack", "answer", "time", "/health p99 / max (n)", "GET p99 / max (n)", "peak RSS"];
  const cells = rows.map((row) => [
    row.label,
    row.answer,
    ms(row.ms),
    latencies(row.health),
    latencies(row.read),
    `${(row.peakRss / 2 ** 20).toFixed(0)} MiB`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) => c.map((cell, i) => cell.padEnd(widths[i] as number)).join(" | ");
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const c of cells) console.log(line(c));
  const failures = rows.filter((row) => row.pollFailures > 0);
  for (const row of failures) console.log(`  ${row.label}: ${row.pollFailures} polls failed or were not 2xx`);
}

/** The organization's owner and two spaces, written straight to the database. */
async function seed(db: Db) {
  await migrate(db);
  const services = { clock: systemClock, ids: timeOrderedIds(), urls: urlsFor("http://localhost:8080") };
  const firstRun = await bootstrapOwner(db, services, "bench@example.com");
  if (!firstRun) throw new Error("expected an empty database");
  const space = (title: string, position: number) =>
    insertSpace(db, services, {
      organization_id: firstRun.organizationId,
      parent_id: null,
      title,
      emoji: "",
      visibility: "private",
      edit_mode: "live",
      default_level: "read",
      position,
    });
  const attacked = await space("Attacked", 0);
  const other = await space("Another space", 1);
  const published = await space("Published", 2);
  return { ...firstRun, spaceId: attacked.id, otherSpaceId: other.id, publishedSpaceId: published.id };
}

const insertPage = (title: string, markdown: string) => ({ type: "insert_page", title, markdown });

async function newChangeRequest(f: Fixture, spaceId = f.spaceId) {
  const cr = await expectOk(f.call("POST", `spaces/${spaceId}/change-requests`, {}), "new CR");
  return cr.body as { id: string; number: number };
}

const editIn = (f: Fixture, cr: { number: number }, title: string, markdown: string, spaceId = f.spaceId) =>
  f.call("POST", `spaces/${spaceId}/change-requests/${cr.number}/content`, {
    changes: [insertPage(title, markdown)],
  });

const kb = (text: string) => `${(Buffer.byteLength(text) / 1024).toFixed(0)} KB`;

/** Nested `<div>`s, served on loopback for the import. */
async function htmlServer(html: string) {
  const server = createServer((req, res) => {
    if (req.url === "/page.html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(html);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/page.html`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function attacks(label: string, database: string) {
  const db = openDatabase({ location: database });
  const notes: string[] = [];
  try {
    const seeded = await seed(db);
    const server = await startServer(database);
    const f: Fixture = { ...seeded, server, call: client(server.url, seeded.token) };
    // Warms the server's code paths, so that the first row does not pay for them.
    for (let i = 0; i < 20; i++) {
      await request(`${server.url}/health`);
      await f.call("GET", `spaces/${f.otherSpaceId}`);
    }
    const rows: Row[] = [];
    const idle = await measure(f, "(no attack, 2 s)", async () => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return { status: 0, body: undefined, text: "" };
    });
    rows.push({ ...idle, answer: "-" });

    const edit = async (name: string, markdown: string) => {
      const cr = await newChangeRequest(f);
      const row = await measure(f, `${name} (${kb(markdown)})`, () => editIn(f, cr, name, markdown));
      rows.push(row);
      return { row, cr };
    };
    await edit("1. nested brackets", "[".repeat(32_768) + "]".repeat(32_768));
    await edit("2. *a** repeated", "*a**".repeat(32_768));
    await edit("3. 32,000 nested quotes", `${"> ".repeat(32_000)}x`);
    await edit("4. 20,000 list levels, one line", `${"- ".repeat(20_000)}x`);
    // Indented, one level a line, 20,000 levels would be 2·Σi ≈ 400 MB: past the 1 MB request limit.
    await edit(
      "4b. 1,000 indented list levels",
      Array.from({ length: 1000 }, (_, i) => `${"  ".repeat(i)}- x`).join("\n"),
    );

    // 4c–4d. GitBook's JSON documents, written out as text (no serializer recurses 20,000 deep).
    const documentEdit = async (name: string, document: string) => {
      const cr = await newChangeRequest(f);
      const body = `{"changes":[{"operation":"insert_page","title":"Doc","document":{"document":${document}}}]}`;
      const url = `${server.url}/v1/spaces/${f.spaceId}/change-requests/${cr.number}/content`;
      const headers = { authorization: `Bearer ${f.token}`, "content-type": "application/json" };
      rows.push(
        await measure(f, `${name} (${kb(body)})`, () => request(url, { method: "POST", headers, body })),
      );
    };
    const quote = '{"object":"block","type":"blockquote","nodes":[';
    const paragraph =
      '{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]}';
    await documentEdit(
      "4c. document of 20,000 nested quotes",
      `{"object":"document","data":{},"nodes":[${quote.repeat(20_000)}${paragraph}${"]}".repeat(20_000)}]}`,
    );
    const leaf =
      '{"object":"leaf","text":"*a**","marks":[{"object":"mark","type":"bold"}]},{"object":"leaf","text":"b","marks":[]}';
    await documentEdit(
      "4d. document of one paragraph of 8,000 marked leaves",
      `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[${Array(8_000).fill(leaf).join(",")}]}]}]}`,
    );

    // 5. The PDF of a change request whose one page is a 900 KB one-line body.
    let words = 184_320;
    let pdfCr: { id: string; number: number } | undefined;
    for (;;) {
      const { row, cr } = await edit(`5. edit: ${words} words, one line`, "word ".repeat(words));
      if (row.status < 300) {
        pdfCr = cr;
        break;
      }
      notes.push(`the edit of ${words} words was refused: ${row.text.slice(0, 200)}`);
      if (words < 1000) break;
      words = Math.floor(words / 2);
    }
    if (pdfCr) {
      const link = await expectOk(
        f.call("GET", `spaces/${f.spaceId}/change-requests/${pdfCr.id}/pdf`),
        "PDF link",
      );
      const pdfUrl = new URL((link.body as { url: string }).url);
      const at = `${server.url}${pdfUrl.pathname}${pdfUrl.search}`;
      const pdf = await measure(f, `5. GET /pdf/<token> (${kb("word ".repeat(words))} page)`, () =>
        request(at),
      );
      rows.push(pdf);
      if (pdf.status >= 400) notes.push(`the PDF's answer: ${pdf.text.slice(0, 200)}`);
      rows.push(await measure(f, "5. the same PDF link again", () => request(at)));
    }

    // The import of deeply nested HTML, served on loopback.
    const html = `<!doctype html><html><head><title>Deep</title></head><body>${"<div>".repeat(20_000)}x${"</div>".repeat(20_000)}</body></html>`;
    const site = await htmlServer(html);
    try {
      const cr = await newChangeRequest(f);
      const imported = await measure(f, `7. import of 20,000 nested <div>s (${kb(html)})`, () =>
        f.call("POST", `spaces/${f.spaceId}/change-requests/${cr.number}/content/import`, {
          url: site.url,
          source: "html",
        }),
      );
      rows.push(imported);
      notes.push(`the import's answer: ${imported.text.slice(0, 200)}`);
    } finally {
      await site.close();
    }

    // 6. A published page whose body cannot be rendered. The edit path refuses such bodies, so a page
    // is merged with a placeholder body whose stored text is then replaced in the database, before
    // the site is published: the row keeps the placeholder's hash, which nothing on the read path
    // checks (the engine keys its work by the hash of the text it is given).
    const pathological = "*a**".repeat(32_768);
    const placeholder = `Placeholder ${Date.now()}`;
    const publishedSpace = f.publishedSpaceId;
    const cr = await newChangeRequest(f, publishedSpace);
    await expectOk(editIn(f, cr, "Guide", placeholder, publishedSpace), "placeholder page");
    await expectOk(f.call("POST", `spaces/${publishedSpace}/change-requests/${cr.number}/merge`), "merge");
    const swapped = await db
      .updateTable("content_documents")
      .set({ markdown: pathological })
      .where("space_id", "=", publishedSpace)
      .where("hash", "=", contentHash(placeholder))
      .executeTakeFirst();
    if (Number(swapped.numUpdatedRows) !== 1) throw new Error("the placeholder body was not found");
    const created = await expectOk(
      f.call("POST", `orgs/${f.organizationId}/sites`, { title: "Handbook", spaces: [publishedSpace] }),
      "new site",
    );
    const siteId = (created.body as { id: string }).id;
    await expectOk(f.call("POST", `orgs/${f.organizationId}/sites/${siteId}/publish`), "publish");
    const visits: (Row & Answer)[] = [];
    for (let visit = 1; visit <= 5; visit++) {
      const row = await measure(f, `6. anonymous visit ${visit} (${kb(pathological)} body)`, () =>
        request(`${server.url}/s/${siteId}/`),
      );
      if (row.status !== 200 || !row.text.includes("This page cannot be shown"))
        notes.push(`visit ${visit}: ${row.status}, without the refusal's reason`);
      visits.push(row);
      rows.push(row);
    }
    const reason = /This page cannot be shown: [^<]*/.exec(visits[0]?.text ?? "")?.[0];

    printTable(`${label}, default content limits`, rows);
    console.log(
      `\n6. five anonymous visits of a published page of ${kb(pathological)} of "*a**": ` +
        `${visits.map((row) => `${row.status} in ${ms(row.ms)}`).join(", ")}` +
        (reason ? `\n   the page shows: "${reason.trim()}"` : ""),
    );
    console.log(
      "   (renders attempted cannot be counted from outside the server process: measured by each visit's" +
        " time, the first paying the attempt, the others answered from the engine's kept refusal)",
    );
    for (const note of notes) console.log(`note: ${note}`);
  } finally {
    stopServers();
    await db.destroy();
  }
}

async function main() {
  console.log(
    "Issue 23's attacks at their real sizes. Each attack in a change request of its own; meanwhile" +
      ` /health and GET /v1/spaces/{another} are asked every ${POLL_EVERY_MS} ms (p99 and max of their` +
      " latencies, number of polls in brackets) and the server process's RSS is read from /proc every" +
      ` ${POLL_EVERY_MS} ms. The bench target has no rate limit.`,
  );
  const dir = mkdtempSync(join(tmpdir(), "quire-bench-attacks-"));
  try {
    await attacks("Quire on SQLite", dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!postgresUrl) {
    console.log("\nSet QUIRE_TEST_DATABASE_URL to run them on PostgreSQL as well.");
    return;
  }
  const postgres = await freshPostgresDatabase(postgresUrl);
  try {
    await attacks("Quire on PostgreSQL", postgres.location);
  } finally {
    await postgres.drop();
  }
}

await main();
