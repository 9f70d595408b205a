import { SqliteAdapter, type Updateable } from "kysely";
import { type Logger, pino } from "pino";
import { type Clock, type IdGenerator, systemClock, timeOrderedIds } from "../context.js";
import { fromJson, timestamp, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { outsideRequests } from "../http/request-context.js";
import type { JobType } from "./queue.js";
import type { JobTable } from "./tables.js";

export interface JobContext {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** 1 on the first run of the job, 2 on its first retry, and so on. */
  attempt: number;
  /** Aborted when the runner stops before the job ends; the job is then released to other runners. */
  signal: AbortSignal;
  /** How long the run's claim holds: past it, another runner may take the job over. */
  leaseMs: number;
  /**
   * Makes the job's last writes and marks it done, in one transaction: should the job run twice (its
   * lease expired while it ran), the writes still happen once, the late run failing here and rolling
   * back. Without it, the runner marks the job done when `run` returns.
   */
  commit(writes: (tx: Db) => Promise<void>): Promise<void>;
}

/** What runs the jobs of one type. */
export interface Task<Payload> {
  type: JobType<Payload>;
  /** Throwing fails the attempt: the job is retried with backoff until `maxAttempts`. */
  run(payload: Payload, job: JobContext): Promise<void>;
  /**
   * Makes the task periodic: one job for the whole deployment (however many runners), due when a
   * runner first starts and `everyMs` after each run; its payload is `{}`.
   */
  everyMs?: number;
  maxAttempts?: number;
}

export const defineTask = <Payload>(
  type: JobType<Payload>,
  definition: Omit<Task<Payload>, "type">,
): Task<Payload> => ({ type, ...definition });

/** Any task, whatever its payload, as a runner holds them. */
export type AnyTask = Task<never>;

const DEFAULT_MAX_ATTEMPTS = 10;

/** How long after failed attempt `attempt` (1 for the first) the job is tried again. */
const retryDelayMs = (attempt: number) => Math.min(10_000 * 2 ** (attempt - 1), 60 * 60 * 1000);

export interface JobRunnerOptions {
  db: Db;
  tasks: readonly AnyTask[];
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
  /** Jobs this runner runs at a time. */
  concurrency?: number;
  /** How long a claim holds: a job running longer may be taken over by another runner. */
  leaseMs?: number;
  /** How often an idle runner looks for due jobs. */
  pollMs?: number;
}

export interface JobRunner {
  /** Runs due jobs in the background until `stop`. */
  start(): void;
  /**
   * Stops claiming jobs and aborts those running, waiting up to `graceMs` for them to end. An
   * aborted job goes back to the queue at once; one still running after the grace is taken over by
   * another runner when its lease expires.
   */
  stop(graceMs?: number): Promise<void>;
  /** Runs due jobs until none is left; how many ran. */
  runUntilIdle(): Promise<number>;
}

type ClaimedJob = JobTable & { claimed_by: string };

/** This runner no longer holds the job's claim: another one took it over after its lease expired. */
class LeaseLost extends Error {}

/**
 * Runs the jobs of the `jobs` table. A runner claims due jobs in one statement that moves their
 * `run_at` to the end of a lease and stamps its own token; on PostgreSQL `FOR UPDATE SKIP LOCKED`
 * keeps runners of several processes off each other's rows, SQLite serializes writers anyway. Only
 * the holder of the current token may complete, retry or release a job. A job is deleted when done
 * (a periodic one rescheduled); a runner that dies leaves its claims to expire, and a job whose
 * lease expired is due again: every job runs at least once, and exactly once while runs end within
 * the lease. Only tasks this runner knows are claimed, so that servers of different versions can
 * share the table.
 */
export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, concurrency = 2, leaseMs = 5 * 60 * 1000, pollMs = 1000 } = options;
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? timeOrderedIds(clock);
  const logger = options.logger ?? pino({ level: "silent" });
  const tasks = new Map(options.tasks.map((task) => [task.type.name, task]));
  const postgres = !(db.getExecutor().adapter instanceof SqliteAdapter);
  const now = () => timestamp(clock.now());
  const after = (ms: number) => timestamp(clock.now(), ms);

  let periodicScheduled = false;
  async function schedulePeriodic() {
    if (periodicScheduled) return;
    for (const task of tasks.values()) {
      if (task.everyMs === undefined) continue;
      await db
        .insertInto("jobs")
        .values({
          id: `every:${task.type.name}`,
          task: task.type.name,
          payload: toJson({}),
          run_at: now(),
          interval_ms: task.everyMs,
          attempts: 0,
          claimed_by: null,
          last_error: null,
          failed_at: null,
          created_at: now(),
        })
        .onConflict((oc) =>
          oc
            .column("id")
            .doUpdateSet({ interval_ms: task.everyMs })
            .where("jobs.interval_ms", "!=", task.everyMs as number),
        )
        .execute();
    }
    periodicScheduled = true;
  }

  async function claim(limit: number): Promise<ClaimedJob[]> {
    if (tasks.size === 0) return [];
    const token = ids.next();
    const due = db
      .selectFrom("jobs")
      .select("id")
      .where("failed_at", "is", null)
      .where("run_at", "<=", now())
      .where("task", "in", [...tasks.keys()])
      .orderBy("run_at")
      .orderBy("id")
      .limit(limit);
    const claimed = await db
      .updateTable("jobs")
      .set((eb) => ({ claimed_by: token, run_at: after(leaseMs), attempts: eb("attempts", "+", 1) }))
      .where("id", "in", postgres ? due.forUpdate().skipLocked() : due)
      .returningAll()
      .execute();
    return claimed as ClaimedJob[];
  }

  /** Changes or deletes the job if this runner still holds its claim; throws LeaseLost otherwise. */
  async function settle(tx: Db, job: ClaimedJob, changes: Updateable<JobTable> | "delete") {
    const result =
      changes === "delete"
        ? await tx
            .deleteFrom("jobs")
            .where("id", "=", job.id)
            .where("claimed_by", "=", job.claimed_by)
            .executeTakeFirst()
        : await tx
            .updateTable("jobs")
            .set(changes)
            .where("id", "=", job.id)
            .where("claimed_by", "=", job.claimed_by)
            .executeTakeFirst();
    const changed = "numDeletedRows" in result ? result.numDeletedRows : result.numUpdatedRows;
    if (Number(changed) === 0) throw new LeaseLost();
  }

  const complete = (tx: Db, job: ClaimedJob) =>
    settle(
      tx,
      job,
      job.interval_ms === null
        ? "delete"
        : { run_at: after(job.interval_ms), attempts: 0, claimed_by: null, last_error: null },
    );

  async function fail(job: ClaimedJob, task: AnyTask, err: unknown, log: Logger) {
    const base = {
      claimed_by: null,
      last_error: (err instanceof Error ? err.message : String(err)).slice(0, 2000),
    };
    if (job.attempts < (task.maxAttempts ?? DEFAULT_MAX_ATTEMPTS)) {
      const delay = retryDelayMs(job.attempts);
      log.warn({ err, retryInMs: delay }, "job failed; it will be retried");
      await settle(db, job, { ...base, run_at: after(delay) });
    } else if (job.interval_ms !== null) {
      log.error({ err }, "periodic job failed on every attempt; it runs again at its next interval");
      await settle(db, job, { ...base, run_at: after(job.interval_ms), attempts: 0 });
    } else {
      log.error({ err }, "job failed on every attempt; given up");
      await settle(db, job, { ...base, failed_at: now() });
    }
  }

  async function execute(job: ClaimedJob, abort: AbortController) {
    const task = tasks.get(job.task) as AnyTask;
    const log = logger.child({ job: job.id, task: job.task, attempt: job.attempts });
    let committed = false;
    const context: JobContext = {
      db,
      clock,
      ids,
      logger: log,
      attempt: job.attempts,
      signal: abort.signal,
      leaseMs,
      async commit(writes) {
        if (committed) throw new Error("A job commits once.");
        committed = true;
        await db.transaction().execute(async (tx) => {
          await writes(tx);
          await complete(tx, job);
        });
      },
    };
    try {
      // A job is the server's own work, even when a request started the runner's loop.
      await outsideRequests(() => task.run(fromJson(job.payload) as never, context));
      if (!committed) await complete(db, job);
    } catch (err) {
      try {
        if (err instanceof LeaseLost) {
          log.warn("another runner took the job over after its lease expired; this run's result is dropped");
        } else if (abort.signal.aborted) {
          await settle(db, job, { claimed_by: null, run_at: now(), attempts: job.attempts - 1 });
          log.info("job interrupted by the runner stopping; released");
        } else {
          await fail(job, task, err, log);
        }
      } catch (settleErr) {
        log.error(
          { err: settleErr },
          "could not record how the job ended; it runs again when its lease expires",
        );
      }
    }
  }

  const running = new Set<{ done: Promise<void>; abort: AbortController }>();
  let stopping = false;
  let loop: Promise<void> | undefined;
  /** Set when a job ends or `stop` is called, so that the loop does not sleep through it. */
  let woken = false;
  let endIdle: (() => void) | undefined;
  const wake = () => {
    woken = true;
    endIdle?.();
  };
  const idle = () =>
    new Promise<void>((resolve) => {
      if (woken) return resolve();
      const timer = setTimeout(() => endIdle?.(), pollMs);
      endIdle = () => {
        clearTimeout(timer);
        endIdle = undefined;
        resolve();
      };
    });

  function launch(job: ClaimedJob) {
    const entry = { abort: new AbortController(), done: Promise.resolve() };
    entry.done = execute(job, entry.abort).finally(() => {
      running.delete(entry);
      wake();
    });
    running.add(entry);
  }

  async function run() {
    while (!stopping) {
      woken = false;
      let claimed = 0;
      try {
        await schedulePeriodic();
        const free = concurrency - running.size;
        if (free > 0) {
          const jobs = await claim(free);
          for (const job of jobs) launch(job);
          claimed = jobs.length;
        }
      } catch (err) {
        logger.error({ err }, "could not claim jobs; trying again");
      }
      if (!stopping && (claimed === 0 || running.size >= concurrency)) await idle();
    }
  }

  return {
    start() {
      loop ??= run();
    },

    async stop(graceMs = 10_000) {
      stopping = true;
      wake();
      await loop;
      for (const { abort } of running) abort.abort(new Error("The job runner is stopping."));
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.allSettled([...running].map(({ done }) => done)), grace]);
      clearTimeout(timer);
    },

    async runUntilIdle() {
      await schedulePeriodic();
      let ran = 0;
      for (;;) {
        const jobs = await claim(concurrency);
        if (jobs.length === 0) return ran;
        await Promise.all(jobs.map((job) => execute(job, new AbortController())));
        ran += jobs.length;
      }
    },
  };
}
