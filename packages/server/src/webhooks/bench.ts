/**
 * The events bench (`npm run bench:events`), on SQLite and PostgreSQL side by side:
 *
 * 1. What recording an event costs the writes that cause them, for two causes: the smallest write
 *    (one space's row changed) and the creation of a space as `createSpace` makes one (the content
 *    tree locked, the place found, the space and its first revision inserted). Rounds of transactions
 *    by concurrent writers of one organization, without the event and with it (`recordEvent`),
 *    alternated, each round 2 s (`BENCH_ROUND_MS`); medians of writes a second and their ratio. The
 *    events are numbered as a server numbers them (`numberEvents`, every second), and a round ends
 *    once its events are all numbered. The row change again with each writer in an organization of
 *    its own. Then the same two through the API (`updateSpaceById`, `createSpace`): the same server
 *    and requests, alternating rounds whose requests run `withoutEvents` with rounds that record
 *    them, the requests sent from a worker thread (`sendLoad`); what the target is about, since no
 *    event is written but by a request's change. The rename again with each writer in an
 *    organization of its own. And at the target's rate, the row change and the rename sent at 1,000
 *    a second whatever the server does (an open loop): their latencies without and with events, and
 *    the CPU a write took in the server's thread and in PostgreSQL (`bench/cpu.ts`), which do not
 *    depend on how close to its limit the machine runs, as latencies do.
 * 2. How fast a webhook receives them: events recorded in advance, one webhook to a receiver on
 *    loopback (node:http, answering 204), the job runner started; the time from its start to the last
 *    delivery, each delivery's signature verified and the order checked.
 *
 * Targets (issue 26): 1,000 events a second recorded with writes slowed by at most 10%, and 200
 * deliveries a second with the order per webhook kept.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { join } from "node:path";
import { PostgresAdapter } from "kysely";
import { Webhook } from "standardwebhooks";
import { createApp } from "../app.js";
import { serverTasks } from "../areas.js";
import { generateSecretKey } from "../auth/secret-key.js";
import { issueToken } from "../auth/tokens.js";
import { postgresCpuMicros, threadCpuMicros } from "../bench/cpu.js";
import { onBenchDatabases } from "../bench/databases.js";
import { closedLoop, finishedRate, type LoadRequests, openLoop, sendLoad } from "../bench/http-load.js";
import { directoryBlobStore } from "../blobs/blobs.js";
import { createOrganization } from "../commands/create-organization.js";
import { authorizeCreateUnder, endPosition, lockContentTree } from "../content/tree.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { type Db, migrate, type Transaction } from "../db/database.js";
import type { SpaceTable } from "../db/schema.js";
import { defaultEventDelivery } from "../events/delivery-settings.js";
import { numberEvents } from "../events/numbering.js";
import { recordEvent, withoutEvents } from "../events/record.js";
import { createJobRunner } from "../jobs/runner.js";
import type { NetworkPolicy } from "../net/fetch.js";
import { gitSettingsFrom } from "../net/git.js";
import { insertSpace, updateSpace } from "../spaces/index.js";
import { createUser } from "../users/index.js";

const WRITERS = 8;
/** How long each round writes: rounds of a fixed time, whatever the write costs, keep rows comparable. */
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 2_000);
const ROUNDS = 5;
/**
 * Rounds of each side at the target's rate: a latency's median moves with the machine's hiccups more
 * than a rate does (one round's median of 26 ms among others of 1–2 ms), and the median of more rounds
 * leaves them out.
 */
const ROUNDS_AT_RATE = 9;
const DELIVERIES = 2000;
/** The target's rate: writes a second sent at their times, each with its event or none. */
const RATE = 1_000;
const loopback: NetworkPolicy = { allowedPrivateAddresses: ["127.0.0.1"] };

/** Rounds alternating without and with events, after one of each to warm up: each side's figures. */
async function alternate<T>(
  round: (withEvents: boolean) => Promise<T>,
  count = ROUNDS,
): Promise<Record<"without" | "with", T[]>> {
  await round(false);
  await round(true);
  const rounds: Record<"without" | "with", T[]> = { without: [], with: [] };
  for (let i = 0; i < count; i++) {
    rounds.without.push(await round(false));
    rounds.with.push(await round(true));
  }
  return rounds;
}

/** Medians of writes a second of rounds alternating without and with events. */
async function compare(rate: (withEvents: boolean) => Promise<number>): Promise<SideBySide> {
  const rounds = await alternate(rate);
  return { without: median(rounds.without), with: median(rounds.with) };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`Check failed: ${what}`);
}

/**
 * Runs `writes` with events numbered as a server numbers them, by the fan-outs every `fanOutMs`, and
 * what is left once the writes end numbered before `writes`' time is taken: a round's figure counts
 * the numbering of its events.
 */
async function numberingAlong<T>(db: Db, writes: () => Promise<T>): Promise<T> {
  let numbering = Promise.resolve(0);
  const timer = setInterval(() => {
    numbering = numbering.then(() => numberEvents(db));
  }, defaultEventDelivery.fanOutMs);
  try {
    return await writes();
  } finally {
    clearInterval(timer);
    await numbering;
    await numberEvents(db);
  }
}

/**
 * Writes a second of a round of `writes` (which resolves to how many finished), their events
 * numbered as a server numbers them: counted over the time until the last is numbered.
 */
async function forARound(db: Db, writes: () => Promise<number>): Promise<number> {
  const started = performance.now();
  const finished = await numberingAlong(db, writes);
  return finished / ((performance.now() - started) / 1000);
}

/**
 * Latencies in ms of writes sent at RATE a second for a round (`openLoop`, by `send`), and the rate
 * they finished at (`finishedRate`), which must be RATE's; their events numbered as `forARound`'s.
 */
async function atRate(db: Db, send: (count: number) => Promise<number[]>): Promise<Latencies> {
  const count = Math.round((RATE * ROUND_MS) / 1000);
  // PostgreSQL's processes, when the bench's database is one of theirs.
  const postgresCpu =
    db.getExecutor().adapter instanceof PostgresAdapter ? postgresCpuMicros : () => undefined;
  const thread = threadCpuMicros();
  const postgres = postgresCpu();
  const latencies = await numberingAlong(db, () => send(count));
  const postgresAfter = postgresCpu();
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    median: median(sorted),
    p99: sorted[Math.floor(sorted.length * 0.99)] as number,
    rate: finishedRate(RATE, latencies),
    threadCpu: (threadCpuMicros() - thread) / count,
    postgresCpu:
      postgres === undefined || postgresAfter === undefined ? Number.NaN : (postgresAfter - postgres) / count,
  };
}

interface Latencies {
  median: number;
  p99: number;
  /** Writes finished a second. */
  rate: number;
  /**
   * CPU time in µs a write, numbering included: of the main thread (the server's, or the writer's for
   * the row change, where SQLite's work is too), and of PostgreSQL's processes when they run on this
   * machine (NaN otherwise).
   */
  threadCpu: number;
  postgresCpu: number;
}

/** Rounds at RATE alternating without and with events: medians of their figures. */
async function compareAtRate(
  latencies: (withEvents: boolean) => Promise<Latencies>,
): Promise<{ without: Latencies; with: Latencies }> {
  const rounds = await alternate(latencies, ROUNDS_AT_RATE);
  const medians = (of: Latencies[]): Latencies => ({
    median: median(of.map((l) => l.median)),
    p99: median(of.map((l) => l.p99)),
    rate: median(of.map((l) => l.rate)),
    threadCpu: median(of.map((l) => l.threadCpu)),
    postgresCpu: median(of.map((l) => l.postgresCpu)),
  });
  return { without: medians(rounds.without), with: medians(rounds.with) };
}

/** Writes a second without their events and with them. */
interface SideBySide {
  without: number;
  with: number;
}

interface Figures {
  updates: SideBySide;
  /** The same with each writer in an organization of its own: no event counter shared. */
  spreadStoreUpdates: SideBySide;
  creations: SideBySide;
  /** The same two through the API: `updateSpaceById` and `createSpace` requests. */
  apiUpdates: SideBySide;
  /** Spaces renamed through the API by writers of as many organizations. */
  spreadUpdates: SideBySide;
  apiCreations: SideBySide;
  /** Space rows changed at RATE a second, each write at its time, in one organization. */
  updatesAtRate: { without: Latencies; with: Latencies };
  /** Spaces renamed through the API at RATE a second, each request at its time, in one organization. */
  renamesAtRate: { without: Latencies; with: Latencies };
  deliveriesPerSecond: number;
}

async function run(db: Db, directory: string): Promise<Figures> {
  await migrate(db);
  const clock = systemClock;
  const ids = timeOrderedIds();
  const context = { clock, ids };
  const user = await createUser(db, context, { email: "bench@example.com", displayName: "Bench" });
  const organization = await createOrganization(db, context, user.id, { title: "Bench" });
  const spaceIn = (organizationId: string, i: number) =>
    insertSpace(db, context, {
      organization_id: organizationId,
      parent_id: null,
      title: `Space ${i}`,
      emoji: "",
      visibility: "private",
      edit_mode: "live",
      default_level: "read",
      position: i,
    });
  const spaces: SpaceTable[] = [];
  for (let i = 0; i < WRITERS; i++) spaces.push(await spaceIn(organization.id, i));
  // One space in each of WRITERS other organizations: writers that share no event counter.
  const spread: SpaceTable[] = [];
  for (let i = 0; i < WRITERS; i++)
    spread.push(
      await spaceIn((await createOrganization(db, context, user.id, { title: `Bench ${i}` })).id, 0),
    );

  type Cause = (tx: Transaction, writer: number, i: number) => Promise<SpaceTable>;
  /** A space's title changed, each writer's in `among`: the smallest write there is. */
  const updateIn =
    (among: SpaceTable[]): Cause =>
    (tx, writer, i) =>
      updateSpace(
        tx,
        among[writer] as SpaceTable,
        { title: `Space ${writer} ${i}` },
        clock.now().toISOString(),
      );
  /** A space created as `createSpace` creates one. */
  const creation: Cause = async (tx, writer, i) => {
    await lockContentTree(tx, [organization.id]);
    await authorizeCreateUnder(tx, organization.id, "admin", null);
    return insertSpace(tx, context, {
      organization_id: organization.id,
      parent_id: null,
      title: `Created ${writer} ${i}`,
      emoji: "",
      visibility: "private",
      edit_mode: "live",
      default_level: "read",
      position: await endPosition(tx, organization.id, null),
    });
  };
  /** One transaction of `cause`, with its event or without. */
  const write = (cause: Cause, withEvent: boolean, writer: number, i: number) =>
    db.transaction().execute(async (tx) => {
      const space = await cause(tx, writer, i);
      if (withEvent)
        await recordEvent(tx, context, {
          organizationId: space.organization_id,
          type: "space_updated",
          actorId: user.id,
          spaceId: space.id,
          data: { space: space.id, title: space.title, visibility: "private", changes: ["title"] },
        });
    });
  /** Writes a second by WRITERS writers, each writing one after another, for a round. */
  const writes = (cause: Cause, withEvent: boolean) =>
    forARound(db, () => closedLoop(WRITERS, ROUND_MS, (writer, i) => write(cause, withEvent, writer, i)));
  const updates = await compare((withEvents) => writes(updateIn(spaces), withEvents));
  const spreadStoreUpdates = await compare((withEvents) => writes(updateIn(spread), withEvents));
  const creations = await compare((withEvents) => writes(creation, withEvents));
  const updatesAtRate = await compareAtRate((withEvents) =>
    atRate(db, (count) => openLoop(RATE, count, (i) => write(updateIn(spaces), withEvents, i % WRITERS, i))),
  );

  // Deliveries: a receiver checking each signature and the order, one webhook, the runner.
  const secretKey = generateSecretKey();
  const blobs = directoryBlobStore(join(directory, "blobs"));
  const git = gitSettingsFrom(
    { cacheDirectory: join(directory, "git"), timeoutMs: 60_000, maxBytes: 1 << 20, pollMs: 0 },
    loopback,
  );
  const app = createApp({
    db,
    clock,
    ids,
    secretKey,
    publicUrl: "http://quire.bench",
    files: { blobs, maxUploadBytes: 1 << 20 },
    network: loopback,
    git,
  });
  // The API's "events off" side: the same app, its requests run `withoutEvents`.
  let eventsRecorded = true;
  const api = createServer((req, res) =>
    eventsRecorded ? app(req, res) : withoutEvents(() => app(req, res)),
  );
  // Longer than any pause of the client's: a socket the server closes as the client reuses it is reset.
  api.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  const received: number[] = [];
  let verifier: Webhook | undefined;
  let lastAt = 0;
  const receiver = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const event = verifier?.verify(body, req.headers as Record<string, string>) as { sequence: number };
    received.push(event.sequence);
    lastAt = performance.now();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  try {
    const token = await issueToken(db, context, user.id, "bench");
    const origin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    const renames = (among: SpaceTable[]): LoadRequests => ({
      origin,
      token,
      method: "PATCH",
      paths: among.map((space) => `/v1/spaces/${space.id}`),
      expect: 200,
    });
    const spaceCreations: LoadRequests = {
      origin,
      token,
      method: "POST",
      paths: [`/v1/orgs/${organization.id}/spaces`],
      expect: 201,
    };
    /** Requests a second through the API, recording their events or not (`withoutEvents`). */
    const apiWrites = (requests: LoadRequests, withEvents: boolean) => {
      eventsRecorded = withEvents;
      // From a worker thread, off the server's event loop.
      return forARound(db, async () => {
        const load = await sendLoad(requests, { kind: "closed", writers: WRITERS, ms: ROUND_MS });
        return load.finished;
      });
    };
    const apiUpdates = await compare((withEvents) => apiWrites(renames(spaces), withEvents));
    const spreadUpdates = await compare((withEvents) => apiWrites(renames(spread), withEvents));
    const apiCreations = await compare((withEvents) => apiWrites(spaceCreations, withEvents));
    const renamesAtRate = await compareAtRate((withEvents) => {
      eventsRecorded = withEvents;
      return atRate(db, async (count) => {
        const load = await sendLoad(renames(spaces), { kind: "rate", rate: RATE, count });
        return load.latencies;
      });
    });
    eventsRecorded = true;
    const created = await fetch(`${origin}/v1/orgs/${organization.id}/webhooks`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        events: ["space_updated"],
      }),
    });
    check(created.status === 201, `the webhook is created (${created.status})`);
    const webhook = (await created.json()) as { secret: string };
    verifier = new Webhook(webhook.secret);
    const space = spaces[0] as SpaceTable;
    for (let i = 0; i < DELIVERIES; i++)
      await db.transaction().execute((tx) =>
        recordEvent(tx, context, {
          organizationId: organization.id,
          type: "space_updated",
          actorId: user.id,
          spaceId: space.id,
          data: { space: space.id, title: `Delivery ${i}`, visibility: "private", changes: ["title"] },
        }),
      );
    const runner = createJobRunner({
      db,
      clock,
      ids,
      pollMs: 20,
      // Fan-out every 50 ms: the bench measures delivery, not the wait for the next look at new events.
      tasks: serverTasks({
        network: loopback,
        git,
        secretKey,
        blobs,
        eventDelivery: { ...defaultEventDelivery, fanOutMs: 50 },
      }),
    });
    const started = performance.now();
    runner.start();
    while (received.length < DELIVERIES && performance.now() - started < 120_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await runner.stop();
    check(received.length === DELIVERIES, `${DELIVERIES} deliveries (${received.length} received)`);
    check(
      received.every((sequence, i) => i === 0 || sequence === (received[i - 1] as number) + 1),
      "deliveries arrive in the order of the events",
    );
    return {
      updates,
      spreadStoreUpdates,
      creations,
      apiUpdates,
      spreadUpdates,
      apiCreations,
      updatesAtRate,
      renamesAtRate,
      deliveriesPerSecond: DELIVERIES / ((lastAt - started) / 1000),
    };
  } finally {
    await new Promise((resolve) => api.close(resolve));
    await new Promise((resolve) => receiver.close(resolve));
  }
}

const figures: Record<string, Figures> = {};
console.log(`load average at start: ${loadavg()[0]?.toFixed(2)}`);
await onBenchDatabases("events", async (kind, db, directory) => {
  figures[kind] = await run(db, directory);
});
console.log(`load average at end: ${loadavg()[0]?.toFixed(2)}`);
const row = (label: string, value: (f: Figures) => string) =>
  `| ${label} | ${Object.values(figures).map(value).join(" | ")} |`;
console.log(
  `\n| ${WRITERS} writers, of one organization unless said | ${Object.keys(figures).join(" | ")} |`,
);
console.log(
  `|---|${Object.keys(figures)
    .map(() => "---")
    .join("|")}|`,
);
for (const [label, of] of [
  ["space row changed", (f: Figures) => f.updates],
  [`space row changed, ${WRITERS} organizations`, (f: Figures) => f.spreadStoreUpdates],
  ["space created", (f: Figures) => f.creations],
  ["API: space renamed (PATCH)", (f: Figures) => f.apiUpdates],
  [`API: space renamed, ${WRITERS} organizations`, (f: Figures) => f.spreadUpdates],
  ["API: space created (POST)", (f: Figures) => f.apiCreations],
] as const) {
  console.log(row(`${label}: writes/s without events (median)`, (f) => of(f).without.toFixed(0)));
  console.log(row(`${label}: writes/s with their events (median)`, (f) => of(f).with.toFixed(0)));
  console.log(row(`${label}: with / without`, (f) => (of(f).with / of(f).without).toFixed(2)));
}
for (const [what, rated] of [
  ["space row changed", (f: Figures) => f.updatesAtRate],
  ["API: space renamed", (f: Figures) => f.renamesAtRate],
] as const) {
  for (const [label, of, unit] of [
    ["median latency", (l: Latencies) => l.median, "ms"],
    ["99th percentile latency", (l: Latencies) => l.p99, "ms"],
    ["CPU a write of the server's thread", (l: Latencies) => l.threadCpu, "µs"],
    ["CPU a write of PostgreSQL", (l: Latencies) => l.postgresCpu, "µs"],
  ] as const) {
    const prefix = `${what} at ${RATE}/s, ${label}`;
    const figure = (value: number) =>
      Number.isNaN(value) ? "n/a" : unit === "ms" ? value.toFixed(2) : value.toFixed(0);
    console.log(row(`${prefix} in ${unit} without events`, (f) => figure(of(rated(f).without))));
    console.log(row(`${prefix} in ${unit} with their events`, (f) => figure(of(rated(f).with))));
    console.log(
      row(`${prefix}: with / without`, (f) => (of(rated(f).with) / of(rated(f).without)).toFixed(2)),
    );
  }
  console.log(
    row(
      `${what} at ${RATE}/s: writes/s finished without / with events`,
      (f) => `${rated(f).without.rate.toFixed(0)} / ${rated(f).with.rate.toFixed(0)}`,
    ),
  );
}
console.log(
  row("one event's cost in µs (space created, with − without)", (f) =>
    ((1 / f.creations.with - 1 / f.creations.without) * 1e6).toFixed(0),
  ),
);
console.log(row(`deliveries/s (${DELIVERIES}, in order, verified)`, (f) => f.deliveriesPerSecond.toFixed(0)));
