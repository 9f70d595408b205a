import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import type { WorkerTask } from "./worker.js";

/** How much a pool may take: threads, waiting tasks, and per task time and memory. */
export interface PoolLimits {
  threads: number;
  /** Tasks that may wait for a thread; one more is refused (`PoolBusy`). */
  maxQueue: number;
  /** How long a task may run, once it has a thread and its module is loaded. */
  timeoutMs: number;
  /** The old-generation heap of each thread, in MiB: a task that needs more fails alone. */
  memoryMb: number;
  /**
   * How long a thread stays without a task before it goes, giving back the heap its last task grew
   * (5 s when not given); a new thread costs a start and its modules' loading, a quarter of a second.
   */
  idleMs?: number;
}

/** Why a task was stopped: it ran longer than the pool allows, ran out of memory or of stack. */
export type Overrun = "time" | "memory" | "stack";

/** A task that could not finish within the pool's limits; the pool and its other tasks go on. */
export class WorkOverrun extends Error {
  constructor(
    readonly overrun: Overrun,
    readonly limits: PoolLimits,
  ) {
    super(`the task overran the pool's ${overrun} limit`);
  }
}

/** Every thread is busy and the queue is full: try again later. */
export class PoolBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("every worker thread is busy");
  }
}

/**
 * The module `name` beside the module at `base` (its `import.meta.url`), for a pool's threads to load:
 * `name.ts` under the tests, which run the sources, `name.js` in the build.
 */
export function siblingModule(base: string, name: string): URL {
  return new URL(`./${name}${extname(fileURLToPath(base))}`, base);
}

const workerFile = fileURLToPath(siblingModule(import.meta.url, "worker"));

/** Longest a thread may take to start and load a task's module before the task is given up (503). */
const START_LIMIT_MS = 60_000;

/**
 * Worker threads for CPU-heavy or input-sized work (parsing, rendering, conversion), so that the event
 * loop keeps answering. Piscina keeps the threads (started on demand, replaced when one dies); this
 * class bounds what waits, and times each task from when its function is called, not from when it was
 * queued or its thread started, so that a task behind slow ones, or on a cold thread, is never taken
 * for one too heavy.
 */
export class WorkerPool {
  readonly #piscina: Piscina<WorkerTask, unknown>;
  readonly #waiting: (() => void)[] = [];
  #running = 0;

  constructor(readonly limits: PoolLimits) {
    this.#piscina = new Piscina({
      filename: workerFile,
      minThreads: 0,
      maxThreads: limits.threads,
      idleTimeout: limits.idleMs ?? 5_000,
      resourceLimits: {
        maxOldGenerationSizeMb: limits.memoryMb,
        maxYoungGenerationSizeMb: 16,
        stackSizeMb: 4,
      },
    });
  }

  /**
   * Calls `name` of the module at `module` with `input` in a thread; its result comes back by structured
   * clone. It may run `timeoutMs`, the pool's time limit unless given.
   */
  async run<Result>(
    module: URL,
    name: string,
    input: unknown,
    timeoutMs = this.limits.timeoutMs,
  ): Promise<Result> {
    await this.#thread();
    // The time limit runs from the call of the function, once the thread has started and loaded its
    // module: on a loaded machine a cold start alone can take seconds, and must not count as the
    // input's cost (a refusal is kept). A thread that cannot start at all is a busy pool, not an overrun.
    const { port1: started, port2 } = new MessageChannel();
    const abort = new AbortController();
    let cause: "start" | "time" = "start";
    let timer = setTimeout(() => abort.abort(), START_LIMIT_MS);
    started.once("message", () => {
      clearTimeout(timer);
      cause = "time";
      timer = setTimeout(() => abort.abort(), timeoutMs);
    });
    try {
      return (await this.#piscina.run(
        { module: module.href, name, input, started: port2 } satisfies WorkerTask,
        { signal: abort.signal, transferList: [port2] },
      )) as Result;
    } catch (error) {
      if (abort.signal.aborted && cause === "start")
        throw new PoolBusy(Math.max(1, Math.ceil(timeoutMs / 1000)));
      throw this.#overrun(error, { ...this.limits, timeoutMs }) ?? error;
    } finally {
      clearTimeout(timer);
      started.close();
      this.#running--;
      this.#waiting.shift()?.();
    }
  }

  /** Waits for a free thread, or refuses at once when the queue is full. */
  #thread(): Promise<void> {
    if (this.#running < this.limits.threads) {
      this.#running++;
      return Promise.resolve();
    }
    if (this.#waiting.length >= this.limits.maxQueue)
      return Promise.reject(new PoolBusy(Math.max(1, Math.ceil(this.limits.timeoutMs / 1000))));
    return new Promise((resolve) =>
      this.#waiting.push(() => {
        this.#running++;
        resolve();
      }),
    );
  }

  #overrun(error: unknown, limits: PoolLimits): WorkOverrun | undefined {
    const { name, code, message } = (error ?? {}) as { name?: string; code?: string; message?: string };
    if (name === "AbortError" || code === "ABORT_ERR") return new WorkOverrun("time", limits);
    if (code === "ERR_WORKER_OUT_OF_MEMORY") return new WorkOverrun("memory", limits);
    if (name === "RangeError" && message?.includes("call stack")) return new WorkOverrun("stack", limits);
    return undefined;
  }

  /** Stops the threads (at shutdown). */
  close(): Promise<void> {
    return this.#piscina.destroy();
  }
}
