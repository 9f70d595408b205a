import { jobType } from "../jobs/queue.js";
import { type AnyTask, defineTask } from "../jobs/runner.js";
import { purgeExpiredSpaces } from "./store.js";

const purgeDeletedSpaces = jobType<Record<string, never>>("spaces.purge-deleted");

/** The tasks of this area: hourly, the spaces deleted more than 7 days ago go for good. */
export const spaceTasks: readonly AnyTask[] = [
  defineTask(purgeDeletedSpaces, {
    everyMs: 60 * 60 * 1000,
    async run(_payload, job) {
      const removed = await purgeExpiredSpaces(job.db, job.clock.now());
      if (removed > 0) job.logger.info({ removed }, "removed spaces deleted more than 7 days ago");
    },
  }),
];
