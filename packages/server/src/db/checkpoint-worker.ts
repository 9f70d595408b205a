import { parentPort, workerData } from "node:worker_threads";
import SQLite from "better-sqlite3";

/**
 * The thread that checkpoints a SQLite database's write-ahead log (see `checkpoints.ts`): it waits
 * for the server's connection to write, lets writes gather for a moment, then copies what the log
 * holds back into the database file with a PASSIVE checkpoint, which waits for no reader or writer.
 * It imports nothing relative, so that it loads from the TypeScript sources under the tests too.
 */

/** Slots of the shared signals: writes made (counted by the server's connection), stop, stopped. */
export const WRITES = 0;
export const STOP = 1;
export const STOPPED = 2;

export interface CheckpointerData {
  file: string;
  /** An `Int32Array` over it holds the signals above. */
  signals: SharedArrayBuffer;
  /** How long writes gather before a checkpoint. */
  gatherMs: number;
  /** Past this many frames in the log, the server is told (an empty message). */
  longLogFrames: number;
}

function run({ file, signals, gatherMs, longLogFrames }: CheckpointerData): void {
  const shared = new Int32Array(signals);
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(file, { fileMustExist: true });
    // From 0: writes made while this thread started are checkpointed at once.
    let seen = 0;
    while (Atomics.load(shared, STOP) === 0) {
      Atomics.wait(shared, WRITES, seen);
      if (Atomics.load(shared, STOP) !== 0) break;
      // Stop wakes this wait too.
      Atomics.wait(shared, STOP, 0, gatherMs);
      seen = Atomics.load(shared, WRITES);
      const [result] = db.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
      if (result && result.log >= longLogFrames) parentPort?.postMessage(null);
    }
  } finally {
    db?.close();
    Atomics.store(shared, STOPPED, 1);
    Atomics.notify(shared, STOPPED);
  }
}

// The server imports this module for its slots and types: only the thread it starts runs it.
const data = workerData as Partial<CheckpointerData> | null;
if (parentPort && data?.signals instanceof SharedArrayBuffer) run(data as CheckpointerData);
