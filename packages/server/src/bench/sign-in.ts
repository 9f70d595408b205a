/**
 * The sign-in's cost with the chosen argon2 parameters, and what a burst of sign-ins does to the
 * server's other requests (issue: "sign-in p50/p95 with the chosen argon2 parameters, and `/health`
 * p99 while 50 sign-ins a second run (target: under 100 ms)"). A benchmark, not a test: it asserts
 * nothing, it prints figures.
 *
 * The real app runs in a child process of its own (targets.ts: createApp, its default public URL,
 * request logs written), on SQLite in a new directory, then on PostgreSQL too when
 * QUIRE_TEST_DATABASE_URL is set (in a database of its own, dropped at the end), as the other benches.
 * Users are written to the database with a token each, and their passwords set through the API
 * (`PUT /v1/user/password`), hashed by the server. Then:
 *
 * 1. argon2 `hash` and `verify` alone, in this process, for reference;
 * 2. sequential sign-ins (`POST /sign-in`), each request timed from its start to its answer's end;
 * 3. `/health` every 10 ms (open loop, each latency counted from its due time) with nothing else;
 * 4. the same `/health` polls while sign-ins are sent at 50 a second (open loop: one every 20 ms,
 *    whatever the answers), and the server's threads' CPU time (event loop, libuv's pool) meanwhile.
 *
 * The sign-in's rate limits stay on (10 attempts per email and 100 per client address in 15 minutes):
 * every sign-in goes out on a new socket bound to one of 127.0.0.2–250 (Linux routes 127.0.0.0/8 to
 * the loopback), and the users are enough that none is named in more than 10 attempts.
 *
 * Run after a build: `npm run bench:sign-in` in packages/server (`node dist/bench/sign-in.js`).
 * BENCH_DURATION sets the seconds of each /health phase (15), BENCH_SIGN_INS the sequential sign-ins (200).
 */

import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { hash, verify } from "@node-rs/argon2";
import { ARGON2_PARAMETERS } from "../accounts/passwords.js";
import { issueToken } from "../auth/tokens.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { migrate, openDatabase } from "../db/database.js";
import { urlsFor } from "../urls.js";
import { createUser } from "../users/index.js";
import { openLoop } from "./http-load.js";
import { freshPostgresDatabase, startTarget } from "./server.js";

const SEQUENTIAL = Number(process.env.BENCH_SIGN_INS ?? 200);
const PHASE_S = Number(process.env.BENCH_DURATION ?? 15);
const SIGN_INS_A_SECOND = 50;
const HEALTH_EVERY_MS = 10;
/** Sign-ins before the measured ones, so that the server's code is warm. */
const WARMUP = 20;
/** In-process hashes and verifies timed one after the other. */
const ALONE = 20;
/** The rate limits of accounts/routes.ts, per 15 minutes. */
const PER_EMAIL = 10;
const PER_ADDRESS = 100;
/** The client addresses: 127.0.0.2 … 127.0.0.250 (127.0.0.1 is the /health poller's). */
const ADDRESSES = Array.from({ length: 249 }, (_, i) => `127.0.0.${i + 2}`);
/** targets.ts gives createApp no public URL: its default, whose origin a sign-in form must carry. */
const PUBLIC_URL = "http://localhost:8080";
const ORIGIN = new URL(PUBLIC_URL).origin;
const NEXT = new URL(urlsFor(PUBLIC_URL).app("")).pathname;

const postgresUrl = process.env.QUIRE_TEST_DATABASE_URL;
const children: ChildProcess[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const fixed = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

/** The answer's status, and whether it set a session cookie. */
interface Answer {
  status: number;
  session: boolean;
}

/** A sign-in on a new socket from `localAddress`: status 0 when the request failed. */
function signIn(url: string, email: string, password: string, localAddress: string): Promise<Answer> {
  const body = new URLSearchParams({ email, password, next: NEXT }).toString();
  return new Promise((resolve) => {
    const req = httpRequest(
      `${url}/sign-in`,
      {
        method: "POST",
        agent: false,
        localAddress,
        headers: {
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        const cookies = [res.headers["set-cookie"] ?? []].flat();
        const session = cookies.some((cookie) => cookie.startsWith("quire_session="));
        res.resume().on("end", () => resolve({ status: res.statusCode ?? 0, session }));
      },
    );
    req.on("error", () => resolve({ status: 0, session: false })).end(body);
  });
}

/** `GET /health` on a kept-alive connection: its status, 0 when the request failed. */
function health(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest(`${url}/health`, { agent }, (res) =>
      res.resume().on("end", () => resolve(res.statusCode ?? 0)),
    );
    req.on("error", () => resolve(0)).end();
  });
}

/** Seconds a thread ran, and waited runnable for a CPU (Linux's /proc/…/schedstat), as a group of threads. */
interface Time {
  cpu: number;
  wait: number;
  threads: number;
}

const noTime = (): Time => ({ cpu: 0, wait: 0, threads: 0 });

/** The times of a process's threads, by kind: its main thread (the event loop), libuv's pool, the rest. */
function threadTimes(pid: number | "self") {
  const times = { loop: noTime(), pool: noTime(), other: noTime() };
  const main = pid === "self" ? String(process.pid) : String(pid);
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let comm: string;
    let schedstat: string;
    try {
      comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      schedstat = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8");
    } catch {
      continue; // ended since the listing
    }
    // "time on a CPU, time waiting on a run queue (both in ns), timeslices"
    const [cpu, wait] = schedstat.split(" ").map(Number) as [number, number];
    const group = tid === main ? times.loop : comm === "libuv-worker" ? times.pool : times.other;
    group.cpu += cpu / 1e9;
    group.wait += wait / 1e9;
    group.threads++;
  }
  return times;
}

type Times = ReturnType<typeof threadTimes>;

/** Each group's share of one core over `seconds`, between two readings. */
function rates(before: Times, after: Times, seconds: number): Times {
  const rate = (a: Time, b: Time): Time => ({
    cpu: (b.cpu - a.cpu) / seconds,
    wait: (b.wait - a.wait) / seconds,
    threads: b.threads,
  });
  return {
    loop: rate(before.loop, after.loop),
    pool: rate(before.pool, after.pool),
    other: rate(before.other, after.other),
  };
}

interface Phase {
  health: number[];
  healthFailures: number;
  seconds: number;
  server: Times;
  /** This process's main thread: the poller's and the sign-ins' client. */
  client: Time;
  load: number;
}

/** `/health` every 10 ms for PHASE_S, while `alongside` runs; the server's threads' CPU meanwhile. */
async function healthPhase(url: string, pid: number, alongside: () => Promise<void>): Promise<Phase> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let healthFailures = 0;
  const before = threadTimes(pid);
  const clientBefore = threadTimes("self").loop;
  const started = performance.now();
  const [latencies] = await Promise.all([
    openLoop(1000 / HEALTH_EVERY_MS, (PHASE_S * 1000) / HEALTH_EVERY_MS, async () => {
      if ((await health(url, agent)) !== 200) healthFailures++;
    }),
    alongside(),
  ]);
  const seconds = (performance.now() - started) / 1000;
  const after = threadTimes(pid);
  const clientAfter = threadTimes("self").loop;
  agent.destroy();
  return {
    health: latencies,
    healthFailures,
    seconds,
    server: rates(before, after, seconds),
    client: rates({ ...before, loop: clientBefore }, { ...after, loop: clientAfter }, seconds).loop,
    load: loadavg()[0] as number,
  };
}

function printTable(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] as number)).join(" | ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const row of rows) console.log(line(row));
}

const count = (statuses: number[]) => {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} × ${status || "failed"}`).join(", ");
};

/** argon2 alone in this process: each hash and verify timed one after the other, then 4 verifies at once. */
async function argon2Alone() {
  const hashes: number[] = [];
  const verifies: number[] = [];
  let stored = "";
  for (let i = 0; i < ALONE + 2; i++) {
    const start = performance.now();
    stored = await hash(`reference password ${i}`, ARGON2_PARAMETERS);
    if (i >= 2) hashes.push(performance.now() - start);
  }
  for (let i = 0; i < ALONE + 2; i++) {
    const start = performance.now();
    await verify(stored, `reference password ${ALONE + 1}`);
    if (i >= 2) verifies.push(performance.now() - start);
  }
  // As many at once as libuv's pool has threads (4 unless UV_THREADPOOL_SIZE says otherwise).
  const atOnce = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const rounds = 10;
  const start = performance.now();
  for (let round = 0; round < rounds; round++)
    await Promise.all(Array.from({ length: atOnce }, () => verify(stored, "wrong password")));
  const perSecond = (atOnce * rounds) / ((performance.now() - start) / 1000);
  return { hashes, verifies, atOnce, perSecond };
}

async function bench(label: string, database: string) {
  const loadSignIns = PHASE_S * SIGN_INS_A_SECOND;
  const total = WARMUP + SEQUENTIAL + loadSignIns;
  const userCount = Math.ceil(total / PER_EMAIL);
  if (Math.ceil(total / ADDRESSES.length) > PER_ADDRESS)
    throw new Error("too many sign-ins for the addresses");

  const db = openDatabase({ location: database });
  try {
    await migrate(db);
    const services = { clock: systemClock, ids: timeOrderedIds() };
    const users: { email: string; password: string; token: string }[] = [];
    for (let i = 0; i < userCount; i++) {
      const user = await createUser(db, services, {
        email: `signer${i}@example.com`,
        displayName: `Signer ${i}`,
      });
      const token = await issueToken(db, services, user.id, "sign-in bench");
      users.push({ email: user.email, password: `the password of signer ${i}`, token });
    }

    const { child, url } = await startTarget({ kind: "quire", database, validateResponses: false });
    children.push(child);
    const pid = child.pid;
    if (pid === undefined) throw new Error("the server has no process id");

    // The passwords, through the API (hashed by the server), four at a time.
    for (let i = 0; i < users.length; i += 4)
      await Promise.all(
        users.slice(i, i + 4).map(async (user) => {
          const response = await fetch(`${url}/v1/user/password`, {
            method: "PUT",
            headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
            body: JSON.stringify({ newPassword: user.password }),
          });
          if (response.status !== 204)
            throw new Error(`setting a password: ${response.status} ${await response.text()}`);
        }),
      );

    // Every sign-in takes the next user and the next address, so that each stays within its limit.
    let sent = 0;
    const nextSignIn = () => {
      const n = sent++;
      const user = users[n % users.length] as (typeof users)[number];
      return signIn(url, user.email, user.password, ADDRESSES[n % ADDRESSES.length] as string);
    };
    const signInProblems = (answers: Answer[]) =>
      answers.filter((a) => a.status === 303 && !a.session).length;

    for (let i = 0; i < WARMUP; i++) await nextSignIn();
    const healthAgent = new Agent({ keepAlive: true });
    for (let i = 0; i < 50; i++) await health(url, healthAgent);
    healthAgent.destroy();

    // 2. Sequential sign-ins.
    const sequential: number[] = [];
    const sequentialAnswers: Answer[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const start = performance.now();
      sequentialAnswers.push(await nextSignIn());
      sequential.push(performance.now() - start);
    }

    // 3. and 4. /health alone, then under sign-ins at 50 a second.
    await sleep(1000);
    const baseline = await healthPhase(url, pid, async () => {});
    await sleep(1000);
    const loadAnswers: Answer[] = [];
    let signInLatencies: number[] = [];
    const underLoad = await healthPhase(url, pid, async () => {
      signInLatencies = await openLoop(SIGN_INS_A_SECOND, loadSignIns, async (i) => {
        loadAnswers[i] = await nextSignIn();
      });
    });

    // Printed.
    console.log(`\n${label}`);
    console.log(
      `Sequential sign-ins (n = ${SEQUENTIAL}, each timed from its request to its answer's end):` +
        ` p50 ${fixed(quantile(sequential, 0.5))} ms, p95 ${fixed(quantile(sequential, 0.95))} ms,` +
        ` p99 ${fixed(quantile(sequential, 0.99))} ms, max ${fixed(Math.max(...sequential))} ms;` +
        ` answers: ${count(sequentialAnswers.map((a) => a.status))}`,
    );
    console.log(
      `\n/health every ${HEALTH_EVERY_MS} ms for ${PHASE_S} s (open loop; latency counted from each request's due time):`,
    );
    const row = (name: string, p: Phase) => [
      name,
      String(p.health.length),
      fixed(quantile(p.health, 0.5)),
      fixed(quantile(p.health, 0.99)),
      fixed(Math.max(...p.health)),
      String(p.healthFailures),
      share(p.server.loop),
      share(p.server.pool),
      share(p.server.other),
      share(p.client),
      p.load.toFixed(2),
    ];
    const share = (t: Time) => `${(t.cpu * 100).toFixed(0)}% / ${(t.wait * 100).toFixed(0)}%`;
    const ratio = (f: (p: Phase) => number) => `×${(f(underLoad) / f(baseline)).toFixed(1)}`;
    printTable(
      [
        "/health",
        "n",
        "p50 ms",
        "p99 ms",
        "max ms",
        "not 200",
        "server loop: CPU / wait",
        "server pool: CPU / wait",
        "server other: CPU / wait",
        "bench loop: CPU / wait",
        "loadavg 1m",
      ],
      [
        row("baseline (nothing else)", baseline),
        row(`under ${SIGN_INS_A_SECOND} sign-ins/s`, underLoad),
        [
          "ratio (under load / baseline)",
          "",
          ratio((p) => quantile(p.health, 0.5)),
          ratio((p) => quantile(p.health, 0.99)),
          ratio((p) => Math.max(...p.health)),
        ],
      ],
    );
    const answered = loadAnswers.filter((a) => a.status === 303).length;
    const lastAnswer = Math.max(
      ...signInLatencies.map((latency, i) => (i * 1000) / SIGN_INS_A_SECOND + latency),
    );
    console.log(
      `Sign-ins meanwhile: ${loadSignIns} sent, one every ${1000 / SIGN_INS_A_SECOND} ms; ${answered} answered 303,` +
        ` ${loadSignIns - answered} otherwise (${count(loadAnswers.map((a) => a.status))});` +
        ` latency from due time p50 ${fixed(quantile(signInLatencies, 0.5))} ms,` +
        ` p95 ${fixed(quantile(signInLatencies, 0.95))} ms, p99 ${fixed(quantile(signInLatencies, 0.99))} ms,` +
        ` max ${fixed(Math.max(...signInLatencies))} ms; finished at ${((loadSignIns - 1) / (lastAnswer / 1000)).toFixed(1)}/s`,
    );
    const noCookie = signInProblems([...sequentialAnswers, ...loadAnswers]);
    if (noCookie > 0) console.log(`note: ${noCookie} answers 303 set no session cookie`);
    console.log(
      `Rate limits on: ${sent} sign-ins in all (warm-up included) over ${users.length} users` +
        ` (at most ${Math.ceil(sent / users.length)} each, limit ${PER_EMAIL} per 15 min) and` +
        ` ${ADDRESSES.length} client addresses 127.0.0.2–250, one new socket per sign-in` +
        ` (at most ${Math.ceil(sent / ADDRESSES.length)} each, limit ${PER_ADDRESS} per 15 min).`,
    );
    console.log(
      "CPU / wait: time on a CPU, and time runnable but waiting for one (the scheduler's run queue)," +
        " in % of the phase, summed over the threads (/proc/<pid>/task/*/schedstat): the server's main" +
        ` thread (its event loop), libuv's pool (${underLoad.server.pool.threads} threads: argon2), its` +
        " other threads (V8's, the logger's), and this process's main thread (the client).",
    );
  } finally {
    for (const child of children.splice(0)) {
      child.removeAllListeners("exit");
      child.kill();
    }
    await db.destroy();
  }
}

async function main() {
  const cpu = cpus();
  console.log(
    `Machine: ${cpu.length} CPUs (${cpu[0]?.model ?? "?"}), Node ${process.version},` +
      ` load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
  );
  const { algorithm, memoryCost, timeCost, parallelism } = ARGON2_PARAMETERS;
  console.log(
    `argon2${algorithm === 2 ? "id" : ` (algorithm ${algorithm})`}: m = ${memoryCost} KiB, t = ${timeCost},` +
      ` p = ${parallelism} (accounts/passwords.ts)`,
  );
  const alone = await argon2Alone();
  console.log(
    `In this process, one at a time (n = ${ALONE} each): hash p50 ${fixed(quantile(alone.hashes, 0.5))} ms,` +
      ` p95 ${fixed(quantile(alone.hashes, 0.95))} ms; verify p50 ${fixed(quantile(alone.verifies, 0.5))} ms,` +
      ` p95 ${fixed(quantile(alone.verifies, 0.95))} ms. ${alone.atOnce} verifies at once (libuv's pool):` +
      ` ${alone.perSecond.toFixed(0)} a second.`,
  );

  const dir = mkdtempSync(join(tmpdir(), "quire-bench-sign-in-"));
  try {
    await bench("Quire on SQLite", dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!postgresUrl) {
    console.log("\nSet QUIRE_TEST_DATABASE_URL to run it on PostgreSQL as well.");
    return;
  }
  const postgres = await freshPostgresDatabase(postgresUrl);
  try {
    await bench("Quire on PostgreSQL", postgres.location);
  } finally {
    await postgres.drop();
  }
}

await main();
