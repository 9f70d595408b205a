import { type ChildProcess, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createApp } from "../app.js";
import { generateSecretKey } from "../auth/secret-key.js";
import { bootstrapOwner } from "../bootstrap.js";
import { createOrganization } from "../commands/create-organization.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { isPostgresLocation, migrate, openDatabase } from "../db/database.js";
import { insertSpace } from "../spaces/index.js";
import { urlsFor } from "../urls.js";
import { freshPostgresDatabase, type StartedTarget, startTarget } from "./server.js";
import type { PostgresDriver, ReplayedRoute, Statement, Target, TargetReply } from "./targets.js";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
/**
 * Rounds of every row, one after the other. This machine's speed drifts by tens of percent over
 * seconds (shared cores), so each figure is the median of its rounds, and each ratio the median of
 * the ratios measured within one round, side by side.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
/** Requests sent before each measurement, so that every server is measured with its code optimized. */
const WARMUP_REQUESTS = 2000;
const postgresUrl = process.env.QUIRE_TEST_DATABASE_URL;

interface Endpoint {
  label: string;
  path: (f: Fixture) => string;
  /** An API read, whose statements the PostgreSQL ceilings replay. */
  api?: true;
}

const ENDPOINTS: Endpoint[] = [
  { label: "GET /v1/spaces/{spaceId}", path: (f: Fixture) => `/v1/spaces/${f.spaceId}`, api: true },
  {
    label: "GET /v1/orgs/{organizationId}/spaces?limit=50",
    path: (f: Fixture) => `/v1/orgs/${f.organizationId}/spaces?limit=50`,
    api: true,
  },
  // A reader's visit: the HTML of a published page, anonymous (its Authorization header is ignored).
  { label: "GET a published page (HTML)", path: (f: Fixture) => f.publishedPage },
];

interface Fixture {
  organizationId: string;
  token: string;
  spaceId: string;
  /** The path of a page of a published site (see `publish`). */
  publishedPage: string;
}

interface Running {
  label: string;
  /** Its processes (one, or several sharing a port) and their next replies. */
  processes: { child: ChildProcess; next: () => Promise<TargetReply> }[];
  url: string;
  fixture: Fixture;
  kind: Target["kind"];
  /** All of its work runs on the servers' CPU: not so on PostgreSQL, whose server runs elsewhere. */
  cpuBound: boolean;
  /** Whether it answers the endpoint (the PostgreSQL ceilings answer the API's only). */
  serves: (endpoint: Endpoint) => boolean;
  /** The same server in one process, for a target of several. */
  single?: Running;
}

/**
 * Keeps the servers on CPU 0 and the load generator on CPU 1, when `taskset` can. Left to itself,
 * this machine's scheduler often ran both on one CPU, for seconds at a time; the rates then varied
 * by a third from one round to the next, and the slower server was penalized most.
 */
const pinning = (() => {
  if (availableParallelism() < 2) return undefined;
  try {
    execFileSync("taskset", ["-V"], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  return (pid: number, cpu: number) =>
    execFileSync("taskset", ["--all-tasks", "--cpu-list", "--pid", String(cpu), String(pid)], {
      stdio: "ignore",
    });
})();
const SERVER_CPU = 0;
const LOAD_CPU = 1;

/** Every target started, to be stopped at the end whatever happens. */
const children: ChildProcess[] = [];

async function start(label: string, target: Target, fixture: Fixture, processes = 1): Promise<Running> {
  const sharing = (port: number): Target => {
    if (target.kind !== "quire") throw new Error("only Quire runs in several processes here");
    return { ...target, sharedPort: port };
  };
  const started = [await startTarget(processes > 1 ? sharing(0) : target)];
  const url = (started[0] as StartedTarget).url;
  while (started.length < processes) started.push(await startTarget(sharing(Number(new URL(url).port))));
  for (const { child } of started) {
    children.push(child);
    if (child.pid !== undefined) pinning?.(child.pid, SERVER_CPU);
  }
  const onPostgres =
    target.kind === "postgres" || (target.kind === "quire" && isPostgresLocation(target.database));
  const serves = (endpoint: Endpoint) => target.kind !== "postgres" || endpoint.api === true;
  return { label, processes: started, url, fixture, kind: target.kind, cpuBound: !onPostgres, serves };
}

/**
 * Moves PostgreSQL's processes (the server and its backends, whose children inherit it) to the load
 * generator's CPU, so that the servers' CPU is theirs alone as on SQLite; undone by the returned
 * function. Without the rights to (another user's server), PostgreSQL runs where it likes, as said.
 */
function pinPostgres(): (() => void) | undefined {
  if (!pinning) return undefined;
  const before = new Map<number, string>();
  try {
    for (const pid of execFileSync("pgrep", ["-x", "postgres"], { encoding: "utf8" }).trim().split("\n")) {
      // "pid 123's current affinity list: 0,1"
      const list = execFileSync("taskset", ["--cpu-list", "--pid", pid], { encoding: "utf8" }).split(": ")[1];
      if (list) before.set(Number(pid), list.trim());
      pinning(Number(pid), LOAD_CPU);
    }
  } catch {
    return undefined;
  }
  return () => {
    for (const [pid, list] of before)
      try {
        execFileSync("taskset", ["--all-tasks", "--cpu-list", "--pid", list, String(pid)], {
          stdio: "ignore",
        });
      } catch {
        // A backend that ended meanwhile.
      }
  };
}

/**
 * What Quire does on PostgreSQL for each API endpoint: the statements of one request (the second
 * one, its token already known as in steady traffic), seen by an app in this process on the same
 * database, and the JSON the bench's Quire answers.
 */
async function replayedRoutes(target: Running, database: string): Promise<Record<string, ReplayedRoute>> {
  let seen: Statement[] | undefined;
  const db = openDatabase({
    location: database,
    onStatement: (sql, parameters) => seen?.push({ sql, parameters: [...parameters] }),
  });
  const server = createServer(createApp({ db, secretKey: generateSecretKey() }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const routes: Record<string, ReplayedRoute> = {};
  try {
    for (const endpoint of ENDPOINTS.filter((e) => e.api)) {
      const path = endpoint.path(target.fixture);
      const get = async (origin: string) => {
        const response = await fetch(origin + path, { headers: headersFor(target) });
        if (!response.ok) throw new Error(`${path}: ${response.status}`);
        return response.json();
      };
      await get(local);
      seen = [];
      await get(local);
      routes[path] = { statements: seen, response: await get(target.url) };
      seen = undefined;
    }
  } finally {
    server.close();
    await db.destroy();
  }
  return routes;
}

const quireOn = (database: string, validateResponses: boolean): Target => ({
  kind: "quire",
  database,
  validateResponses,
});

const headersFor = (target: Running): Record<string, string> =>
  target.kind === "quire" ? { Authorization: `Bearer ${target.fixture.token}` } : {};

interface Load {
  url: string;
  headers: Record<string, string>;
}

const warmUp = ({ url, headers }: Load) =>
  autocannon({ url, connections: CONNECTIONS, amount: WARMUP_REQUESTS, headers });

async function count({ url, headers }: Load) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/** One server on its own. */
async function measure(load: Load) {
  await warmUp(load);
  return count(load);
}

/** Two servers loaded at once, warmed up together and counted over the same seconds. */
async function measureTogether(first: Load, second: Load) {
  await Promise.all([warmUp(first), warmUp(second)]);
  return Promise.all([count(first), count(second)]);
}

const resultOf = <R>(results: Map<Running, R>, target: Running): R => {
  const result = results.get(target);
  if (result === undefined) throw new Error(`${target.label} was not measured`);
  return result;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const LABEL_WIDTH = 36;
const row = (label: string, m: { rps: number; p99: number }) =>
  `  ${label.padEnd(LABEL_WIDTH)} ${m.rps.toFixed(0).padStart(7)} req/s   p99 ${String(m.p99).padStart(3)} ms`;

/** Seeds an organization with spaces, like a small real one. */
async function seed(database: string): Promise<Fixture> {
  const db = openDatabase({ location: database });
  await migrate(db);
  const services = { clock: systemClock, ids: timeOrderedIds(), urls: urlsFor("http://localhost:8080") };
  const firstRun = await bootstrapOwner(db, services, "bench@example.com");
  if (!firstRun) throw new Error("expected an empty database");
  const { organizationId, token } = firstRun;
  let lastSpace = "";
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < 500; i++) {
      const space = await insertSpace(tx, services, {
        organization_id: organizationId,
        parent_id: null,
        title: `Space ${i}`,
        emoji: "📄",
        visibility: "private",
        edit_mode: "live",
        default_level: "read",
        position: i,
      });
      lastSpace = space.id;
    }
  });
  const owner = await db.selectFrom("memberships").select("user_id").executeTakeFirstOrThrow();
  await createOrganization(db, services, owner.user_id, { title: "Second organization" });
  await db.destroy();
  return { organizationId, token, spaceId: lastSpace, publishedPage: "" };
}

/** A page as documentation has them: headings, a list, a table, code, links (about 6 KB). */
const PAGE_BODY = Array.from(
  { length: 6 },
  (_, i) =>
    `## Step ${i + 1}\n\nRun the command below, then check [the reference](https://example.com/ref#${i}).\n\n` +
    "- one item\n- another item with `code`\n\n| Option | Meaning |\n| --- | --- |\n| `--fast` | Skip checks |\n\n" +
    "```ts\nconst client = new Client({ token: process.env.TOKEN });\nawait client.spaces.list();\n```\n",
).join("\n");

/** Publishes a site over the fixture's space, through the API of the Quire at `url`: its page's path. */
async function publish(url: string, fixture: Fixture): Promise<string> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(url + path, {
      method,
      headers: { Authorization: `Bearer ${fixture.token}`, "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const space = `/v1/spaces/${fixture.spaceId}`;
  const cr = await call("POST", `${space}/change-requests`, {});
  await call("POST", `${space}/change-requests/${cr.number}/content`, {
    changes: [{ type: "insert_page", title: "Getting started", markdown: PAGE_BODY }],
  });
  await call("POST", `${space}/change-requests/${cr.number}/merge`);
  const site = await call("POST", `/v1/orgs/${fixture.organizationId}/sites`, {
    title: "Docs",
    spaces: [fixture.spaceId],
  });
  await call("POST", `/v1/orgs/${fixture.organizationId}/sites/${site.id}/publish`);
  return `/s/${site.id}/getting-started/`;
}

async function main() {
  pinning?.(process.pid, LOAD_CPU);
  const postgres = postgresUrl ? await freshPostgresDatabase(postgresUrl) : undefined;
  const dir = mkdtempSync(join(tmpdir(), "quire-bench-"));
  let unpinPostgres: (() => void) | undefined;
  try {
    const sqlite = await seed(dir);
    const quire = await start("Quire SQLite", quireOn(dir, false), sqlite);
    sqlite.publishedPage = await publish(quire.url, sqlite);
    // The plain servers answer Quire's own JSON (and HTML) for the same URLs.
    const responses: Record<string, unknown> = {};
    for (const { path } of ENDPOINTS) {
      const url = path(sqlite);
      const response = await fetch(quire.url + url, { headers: { Authorization: `Bearer ${sqlite.token}` } });
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      const html = response.headers.get("content-type")?.startsWith("text/html");
      responses[url] = html ? await response.text() : await response.json();
    }
    const targets = [
      await start("node:http", { kind: "raw", responses }, sqlite),
      await start("Express", { kind: "express", responses }, sqlite),
      quire,
      await start("Quire SQLite, responses checked", quireOn(dir, true), sqlite),
    ];
    if (postgres) {
      const fixture = await seed(postgres.location);
      const onPostgres = await start("Quire PostgreSQL", quireOn(postgres.location, false), fixture);
      fixture.publishedPage = await publish(onPostgres.url, fixture);
      const routes = await replayedRoutes(onPostgres, postgres.location);
      const ceiling = (driver: PostgresDriver) =>
        start(
          `PostgreSQL ceiling, ${driver}`,
          { kind: "postgres", driver, database: postgres.location, routes },
          fixture,
        );
      targets.push(
        await ceiling("pg"),
        await ceiling("postgres"),
        onPostgres,
        await start("Quire PostgreSQL, responses checked", quireOn(postgres.location, true), fixture),
        {
          ...(await start("Quire PostgreSQL, 2 processes", quireOn(postgres.location, false), fixture, 2)),
          single: onPostgres,
        },
      );
    }
    unpinPostgres = postgres && pinPostgres();
    // Interrupted, the bench still gives PostgreSQL its CPUs back, stops its servers and drops its database.
    for (const signal of ["SIGINT", "SIGTERM"] as const)
      process.once(signal, () => {
        unpinPostgres?.();
        for (const child of children) child.kill();
        void Promise.resolve(postgres?.drop()).finally(() => process.exit(130));
      });

    console.log(
      `Requests per second, ${CONNECTIONS} connections, ${DURATION_S} s per row, median of ${ROUNDS} rounds;` +
        ` Quire logs at level info (to /dev/null). Quire's rows end with its rate over Express's` +
        " serving the same JSON: measured one after the other in each round, then with both servers" +
        " loaded at once on one CPU, where a drift in the machine's speed slows both alike. On" +
        " PostgreSQL, whose server does part of the work on another CPU, the second ratio is to the" +
        " PostgreSQL ceilings instead: node:http running the statements Quire runs for the URL with" +
        " Quire's driver (pg) or with postgres, then answering the same JSON. The last PostgreSQL row is" +
        " two Quire processes sharing the port (SO_REUSEPORT) on the servers' CPU, over one process." +
        (pinning
          ? ` Servers run on CPU ${SERVER_CPU}, the load generator on CPU ${LOAD_CPU}` +
            (unpinPostgres ? ", and PostgreSQL's processes too." : "; PostgreSQL's processes on either.")
          : " Servers and load generator share the CPUs (no taskset, or one CPU).") +
        (postgres ? "" : "\nSet QUIRE_TEST_DATABASE_URL to add the PostgreSQL rows."),
    );
    const express = targets.find((target) => target.kind === "express");
    if (!express) throw new Error("the bench needs its Express target");
    const ceilings = targets.filter((target) => target.kind === "postgres");
    type Result = { rps: number; p99: number; atOnce?: number };
    for (const endpoint of ENDPOINTS) {
      console.log(`\n${endpoint.label}`);
      const loadOf = (target: Running): Load => ({
        url: target.url + endpoint.path(target.fixture),
        headers: headersFor(target),
      });
      const measured = targets.filter((target) => target.serves(endpoint));
      const rounds: Map<Running, Result>[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const results = new Map<Running, Result>();
        for (const target of measured) results.set(target, await measure(loadOf(target)));
        for (const target of measured) {
          if (target.kind !== "quire" || !target.cpuBound) continue;
          const [quire, beside] = await measureTogether(loadOf(target), loadOf(express));
          results.set(target, { ...resultOf(results, target), atOnce: quire.rps / beside.rps });
        }
        rounds.push(results);
      }
      /** The median over the rounds of what `pick` takes from each round's results. */
      const of = (pick: (results: Map<Running, Result>) => number) => median(rounds.map(pick));
      /** The median of `target`'s rate over `other`'s, taken within each round. */
      const over = (target: Running, other: Running) =>
        of((results) => resultOf(results, target).rps / resultOf(results, other).rps).toFixed(2);
      for (const target of measured) {
        let ratios = "";
        if (target.kind === "quire") {
          ratios = `   ${over(target, express)}`;
          if (target.cpuBound)
            ratios += `   ${of((results) => resultOf(results, target).atOnce ?? Number.NaN).toFixed(2)}`;
          if (target.single) ratios += `   ${over(target, target.single)} of one process`;
          else if (!target.cpuBound && endpoint.api)
            ratios += ceilings
              .map((ceiling) => `   ${over(target, ceiling)} of ${ceiling.label.split(", ")[1]}`)
              .join("");
        }
        const rps = of((results) => resultOf(results, target).rps);
        const p99 = of((results) => resultOf(results, target).p99);
        console.log(row(target.label, { rps, p99 }) + ratios);
      }
    }

    console.log("\nResident memory after the run");
    for (const target of targets) {
      let rss = 0;
      for (const { child, next } of target.processes) {
        child.kill("SIGUSR2");
        const reply = await next();
        if ("rss" in reply) rss += reply.rss;
      }
      console.log(`  ${target.label.padEnd(LABEL_WIDTH)} ${(rss / 2 ** 20).toFixed(0).padStart(7)} MiB`);
    }
  } finally {
    unpinPostgres?.();
    for (const child of children) child.kill();
    rmSync(dir, { recursive: true, force: true });
    await postgres?.drop();
  }
}

await main();
