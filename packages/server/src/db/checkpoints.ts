import { Worker } from "node:worker_threads";
import type SQLite from "better-sqlite3";
import type { Logger } from "pino";
import { siblingModule } from "../workers/pool.js";
import { type CheckpointerData, STOP, STOPPED, WRITES } from "./checkpoint-worker.js";

/**
 * Checkpoints of a SQLite database's write-ahead log, off the event loop. SQLite runs them itself in
 * the commit that takes the log past 1,000 pages: that commit copies the pages back into the database
 * file and syncs it, on the event loop. An event appended with each write filled the log four times
 * as fast, and those checkpoints took 145 µs a write on average, more than the write's own commit.
 * Here a thread of its own (`checkpoint-worker.ts`) checkpoints shortly after writes, with a
 * connection of its own, without waiting for readers or the writer.
 *
 * The log restarts from its beginning only when a write begins with all of it copied back; under
 * constant writes the thread is always a little behind, and the log would grow without end. When the
 * thread finds it longer than `longLogFrames`, the server's connection checkpoints once itself,
 * between two transactions (`onLongLog`): it copies only what the thread has not yet, and its next
 * write restarts the log.
 */
export interface CheckpointSettings {
  /** How long writes gather before the thread checkpoints. */
  gatherMs: number;
  /** The log's length, in pages, past which the server's connection checkpoints once itself. */
  longLogFrames: number;
}

export const DEFAULT_CHECKPOINTS: CheckpointSettings = { gatherMs: 100, longLogFrames: 16_384 };

/** Longest `stop` waits for the thread to close its connection. */
const STOP_WAIT_MS = 10_000;

/** SQLite's own threshold, which the writer goes back to if the thread fails. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;

export interface Checkpointer {
  /** Tells the thread the server's connection has written. */
  wrote(): void;
  /** Stops the thread, waiting until it has closed its connection (the server's is then the last). */
  stop(): void;
}

export function startCheckpointer(
  file: string,
  writer: SQLite.Database,
  settings: CheckpointSettings,
  { onLongLog, logger }: { onLongLog: () => void; logger?: Pick<Logger, "warn"> },
): Checkpointer {
  const signals = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);
  const shared = new Int32Array(signals);
  writer.pragma("wal_autocheckpoint = 0");
  // Once the log restarts, its file is cut back to this size rather than kept at its longest.
  const pageSize = writer.pragma("page_size", { simple: true }) as number;
  writer.pragma(`journal_size_limit = ${settings.longLogFrames * pageSize}`);
  const worker = new Worker(siblingModule(import.meta.url, "checkpoint-worker"), {
    workerData: { file, signals, ...settings } satisfies CheckpointerData,
  });
  worker.unref();
  let running = true;
  worker.on("message", () => onLongLog());
  worker.on("error", (err) => {
    // SQLite checkpoints in the commits again, as by default (unless the database is closed already).
    if (writer.open) writer.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    logger?.warn({ err }, "The SQLite checkpoint thread failed: commits checkpoint the log themselves");
  });
  worker.on("exit", () => {
    running = false;
  });
  return {
    wrote() {
      Atomics.add(shared, WRITES, 1);
      Atomics.notify(shared, WRITES);
    },
    stop() {
      if (!running) return;
      Atomics.store(shared, STOP, 1);
      Atomics.notify(shared, WRITES);
      Atomics.notify(shared, STOP);
      // On the event loop, but only at close: a checkpoint under way finishes first.
      if (Atomics.wait(shared, STOPPED, 0, STOP_WAIT_MS) === "timed-out") void worker.terminate();
    },
  };
}
