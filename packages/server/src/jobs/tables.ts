import type { JsonText } from "../db/codecs.js";

/**
 * Row types of the background job tables, joined into `Database` (src/db/schema.ts). Booleans are
 * 0/1 integers and timestamps ISO 8601 text, as everywhere.
 */
export interface JobsTables {
  jobs: JobTable;
}

/** A job waiting, running or given up on; a job done is deleted, a periodic one rescheduled. */
export interface JobTable {
  /** A periodic job's id is `every:<task>`, so that one row exists per task however many runners start. */
  id: string;
  /** The name of the task that runs it. */
  task: string;
  /** The task's payload, of the type its `JobType` gives. */
  payload: JsonText<unknown>;
  /**
   * When the job may next be claimed: when it is due, or, once claimed, when the claim's lease
   * expires and another runner may take it over.
   */
  run_at: string;
  /** Set on periodic jobs: how long after each run the next one is due. */
  interval_ms: number | null;
  /** Runs started, failed or not: a runner counts one when it claims the job. */
  attempts: number;
  /** The current claim's token; only its holder may complete, reschedule or release the job. */
  claimed_by: string | null;
  last_error: string | null;
  /** When the job was given up on after its last attempt; such a job stays for an operator to see. */
  failed_at: string | null;
  created_at: string;
}
