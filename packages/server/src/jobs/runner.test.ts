import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { timeOrderedIds } from "../context.js";
import { type Db, migrate, openDatabase } from "../db/database.js";
import { publicAddressesOnly } from "../net/fetch.js";
import { DELETED_SPACE_RETENTION_MS } from "../spaces/store.js";
import { openTestDatabase, type TestDatabase, testDatabaseKind } from "../testing/database.js";
import { buildSpace } from "../testing/factories.js";
import { createTestApp, TestClock } from "../testing/harness.js";
import { serverJobRunner } from "../testing/jobs.js";
import { enqueue, jobType } from "./queue.js";
import {
  type AnyTask,
  createJobRunner,
  defineTask,
  type JobContext,
  type JobRunnerOptions,
} from "./runner.js";

const counted = jobType<{ n: number }>("test.counted");

let database: TestDatabase;
let db: Db;
let clock: TestClock;
const ids = timeOrderedIds();
const deps = () => ({ clock, ids });
/** Extra connections to the test database, as other server processes would have. */
const others: Db[] = [];

beforeEach(async () => {
  database = await openTestDatabase();
  db = database.db;
  await migrate(db);
  // Each job's effect, written in the transaction that completes the job.
  await sql`create table job_effects (n integer not null, runner text not null)`.execute(db);
  clock = new TestClock();
});
afterEach(async () => {
  for (const other of others.splice(0)) await other.destroy();
  await database.close();
});

const runner = (tasks: AnyTask[], options: Partial<JobRunnerOptions> = {}) =>
  createJobRunner({ db, clock, ids, tasks, ...options });

/** A task recording each run, whose effect is committed with the job's completion. */
function countingTask(name: string, before?: (n: number, job: JobContext) => Promise<void>) {
  const runs: number[] = [];
  const task = defineTask(counted, {
    async run({ n }, job) {
      runs.push(n);
      await before?.(n, job);
      await job.commit(async (tx) => {
        await sql`insert into job_effects (n, runner) values (${n}, ${name})`.execute(tx);
      });
    },
  });
  return { task, runs };
}

const effects = async (on: Db = db) =>
  (await sql<{ n: number; runner: string }>`select n, runner from job_effects order by n`.execute(on)).rows;
const jobRows = () => db.selectFrom("jobs").selectAll().orderBy("id").execute();

/** A promise and the function that resolves it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("enqueue", () => {
  it("adds a job only when the transaction it is part of commits", async () => {
    await expect(
      db.transaction().execute(async (tx) => {
        await enqueue(tx, deps(), counted, { n: 1 });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await db.transaction().execute((tx) => enqueue(tx, deps(), counted, { n: 2 }));

    const { task, runs } = countingTask("a");
    expect(await runner([task]).runUntilIdle()).toBe(1);
    expect(runs).toEqual([2]);
    expect(await effects()).toEqual([{ n: 2, runner: "a" }]);
    expect(await jobRows()).toEqual([]);
  });
});

describe("a failing job", () => {
  it("is retried with growing delays, then given up on and kept with its error", async () => {
    let runs = 0;
    const failing = defineTask(counted, {
      maxAttempts: 3,
      async run() {
        runs += 1;
        throw new Error(`failure ${runs}`);
      },
    });
    const jobs = runner([failing]);
    await enqueue(db, deps(), counted, { n: 1 });

    expect(await jobs.runUntilIdle()).toBe(1);
    const start = clock.now().getTime();
    expect(await jobRows()).toMatchObject([
      {
        attempts: 1,
        claimed_by: null,
        last_error: "failure 1",
        failed_at: null,
        run_at: new Date(start + 10_000).toISOString(),
      },
    ]);
    expect(await jobs.runUntilIdle()).toBe(0);
    clock.advance(10_000);
    expect(await jobs.runUntilIdle()).toBe(1);
    expect(await jobRows()).toMatchObject([
      { attempts: 2, last_error: "failure 2", run_at: new Date(start + 30_000).toISOString() },
    ]);
    clock.advance(20_000);
    expect(await jobs.runUntilIdle()).toBe(1);
    expect(await jobRows()).toMatchObject([
      { attempts: 3, last_error: "failure 3", failed_at: clock.now().toISOString(), claimed_by: null },
    ]);
    clock.advance(24 * 60 * 60 * 1000);
    expect(await jobs.runUntilIdle()).toBe(0);
    expect(runs).toBe(3);
  });

  it("succeeds on a retry and is then removed", async () => {
    let runs = 0;
    const flaky = defineTask(counted, {
      async run() {
        runs += 1;
        if (runs === 1) throw new Error("once");
      },
    });
    const jobs = runner([flaky]);
    await enqueue(db, deps(), counted, { n: 1 });
    await jobs.runUntilIdle();
    clock.advance(10_000);
    expect(await jobs.runUntilIdle()).toBe(1);
    expect(await jobRows()).toEqual([]);
  });
});

describe("a periodic task", () => {
  it("has one job however many runners start, due at once and again after its interval", async () => {
    let runs = 0;
    const tick = defineTask(jobType<Record<string, never>>("test.tick"), {
      everyMs: 60_000,
      async run() {
        runs += 1;
      },
    });
    expect(await runner([tick]).runUntilIdle()).toBe(1);
    expect(await runner([tick]).runUntilIdle()).toBe(0);
    expect(await jobRows()).toMatchObject([
      { id: "every:test.tick", attempts: 0, run_at: new Date(clock.now().getTime() + 60_000).toISOString() },
    ]);
    clock.advance(60_000);
    expect(await runner([tick]).runUntilIdle()).toBe(1);
    expect(runs).toBe(2);
    expect(await jobRows()).toHaveLength(1);
  });
});

describe("a runner that dies with a job claimed", () => {
  it("leaves it to another runner once its lease expires, and the late run's commit is dropped", async () => {
    const stuck = gate();
    const first = countingTask("first", async () => stuck.opened);
    const second = countingTask("second");
    await enqueue(db, deps(), counted, { n: 7 });

    // The first runner claims the job and never ends it: as a process killed mid-way.
    const firstRun = runner([first.task], { leaseMs: 60_000 }).runUntilIdle();
    await waitFor(() => first.runs.length === 1, "the first runner to claim the job");

    const restarted = runner([second.task], { leaseMs: 60_000 });
    expect(await restarted.runUntilIdle()).toBe(0);
    clock.advance(60_000);
    expect(await restarted.runUntilIdle()).toBe(1);
    expect(await effects()).toEqual([{ n: 7, runner: "second" }]);

    // Should the first runner come back after all, it no longer holds the job: its writes roll back.
    stuck.open();
    await firstRun;
    expect(await effects()).toEqual([{ n: 7, runner: "second" }]);
    expect(await jobRows()).toEqual([]);
  });
});

describe("stopping a runner", () => {
  it("interrupts the jobs it runs and gives them back to the queue at once", async () => {
    const interruptible = countingTask("first", (_n, job) => {
      const { signal } = job;
      return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    });
    await enqueue(db, deps(), counted, { n: 3 });
    const first = runner([interruptible.task], { pollMs: 10 });
    first.start();
    await waitFor(() => interruptible.runs.length === 1, "the runner to start the job");
    await first.stop(5_000);
    expect(await jobRows()).toMatchObject([
      { attempts: 0, claimed_by: null, run_at: clock.now().toISOString() },
    ]);

    const next = countingTask("next");
    expect(await runner([next.task]).runUntilIdle()).toBe(1);
    expect(await effects()).toEqual([{ n: 3, runner: "next" }]);
  });
});

describe("two runners on one database", () => {
  it("run each of 100 jobs once", { timeout: 120_000 }, async () => {
    const JOBS = 100;
    await db.transaction().execute(async (tx) => {
      for (let n = 0; n < JOBS; n++) await enqueue(tx, deps(), counted, { n });
    });
    // On PostgreSQL the second runner has its own pool, as another server process would. Two SQLite
    // connections of one process would block each other (better-sqlite3 waits for locks
    // synchronously), and processes sharing a SQLite file are serialized by its lock anyway.
    let otherDb = db;
    if (testDatabaseKind === "postgres") {
      otherDb = openDatabase({ location: database.location });
      others.push(otherDb);
    }

    // The first jobs wait until both runners hold one, so that they surely claim side by side.
    const bothStarted = gate();
    const started = new Set<string>();
    const runnerOn = (name: string, on: Db) => {
      const counting = countingTask(name, async () => {
        started.add(name);
        if (started.size === 2) bothStarted.open();
        await Promise.race([bothStarted.opened, new Promise((resolve) => setTimeout(resolve, 20_000))]);
      });
      return {
        ...counting,
        jobs: createJobRunner({ db: on, clock, ids, tasks: [counting.task], concurrency: 4, pollMs: 10 }),
      };
    };
    const a = runnerOn("a", db);
    const b = runnerOn("b", otherDb);
    a.jobs.start();
    b.jobs.start();
    await waitFor(async () => (await jobRows()).length === 0, "every job to be done", 100_000);
    await Promise.all([a.jobs.stop(), b.jobs.stop()]);

    const ran = [...a.runs, ...b.runs].sort((x, y) => x - y);
    expect(ran).toEqual([...Array(JOBS).keys()]);
    expect(a.runs.length).toBeGreaterThan(0);
    expect(b.runs.length).toBeGreaterThan(0);
    const done = await effects();
    expect(done.map(({ n }) => n)).toEqual([...Array(JOBS).keys()]);
    expect(done.filter(({ runner }) => runner === "a").length).toBe(a.runs.length);
  });
});

// A whole app of its own on a fresh database: its migrations alone take seconds on a busy PostgreSQL.
describe("the server's tasks", { timeout: 20_000 }, () => {
  it("purge spaces deleted more than 7 days ago, hourly", async () => {
    const t = await createTestApp();
    try {
      const { organizationId } = await t.organization();
      const deletedAt = new Date(t.clock.now().getTime() - DELETED_SPACE_RETENTION_MS).toISOString();
      await buildSpace(t, { organization_id: organizationId, deleted_at: deletedAt });
      const kept = await buildSpace(t, {
        organization_id: organizationId,
        deleted_at: t.clock.now().toISOString(),
      });
      const jobs = serverJobRunner(t, publicAddressesOnly);
      await jobs.runUntilIdle();

      const spaces = await t.db.selectFrom("spaces").select("id").execute();
      expect(spaces.map(({ id }) => id)).toEqual([kept.id]);
      const purge = await t.db
        .selectFrom("jobs")
        .selectAll()
        .where("id", "=", "every:spaces.purge-deleted")
        .executeTakeFirstOrThrow();
      expect(purge.run_at).toBe(new Date(t.clock.now().getTime() + 60 * 60 * 1000).toISOString());
    } finally {
      await t.close();
    }
  });
});
