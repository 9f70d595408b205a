import { timestamp } from "../db/codecs.js";
import { numberEvents } from "../events/numbering.js";
import { jobType } from "../jobs/queue.js";
import { type AnyTask, defineTask } from "../jobs/runner.js";
import { deleteOldEvents, deleteOldFailedSignIns } from "./store.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Events deleted by one statement: a year of a busy organization goes in many short ones. */
const BATCH = 1000;

const retention = jobType<Record<string, never>>("audit.retention");

/** Once a day, deletes the events (the audit log) and failed sign-ins older than `retentionDays`. */
export function auditTasks(retentionDays: number): AnyTask[] {
  return [
    defineTask(retention, {
      everyMs: DAY_MS,
      async run(_payload, job) {
        const before = timestamp(job.clock.now(), -retentionDays * DAY_MS);
        await numberEvents(job.db);
        for (
          let after = await deleteOldEvents(job.db, { before, limit: BATCH });
          after !== undefined;
          after = await deleteOldEvents(job.db, { before, after, limit: BATCH })
        );
        await deleteOldFailedSignIns(job.db, before);
      },
    }),
  ];
}
