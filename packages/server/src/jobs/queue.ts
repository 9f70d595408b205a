import type { Clock, IdGenerator } from "../context.js";
import { timestamp, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";

/** A kind of job: the name of the task that runs it, typed by the payload it takes. */
export interface JobType<Payload> {
  readonly name: string;
  /** Never set: carries the payload's type from `enqueue` to the task. */
  readonly payloadType?: (payload: Payload) => void;
}

export const jobType = <Payload>(name: string): JobType<Payload> => ({ name });

/**
 * Adds a job, due at once. Call it with the transaction that writes what the job is about: the job
 * then exists exactly when that write does, and is never lost once the write is acknowledged.
 */
export async function enqueue<Payload>(
  db: Db,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  type: JobType<Payload>,
  payload: Payload,
): Promise<void> {
  const now = timestamp(clock.now());
  await db
    .insertInto("jobs")
    .values({
      id: ids.next(),
      task: type.name,
      payload: toJson(payload),
      run_at: now,
      interval_ms: null,
      attempts: 0,
      claimed_by: null,
      last_error: null,
      failed_at: null,
      created_at: now,
    })
    .execute();
}
