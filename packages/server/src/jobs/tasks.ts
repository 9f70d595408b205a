import { createFetcher, type NetworkPolicy } from "../net/fetch.js";
import { openApiSpecTasks } from "../openapi-specs/processing.js";
import { purgeExpiredSpaces } from "../spaces/store.js";
import { jobType } from "./queue.js";
import { type AnyTask, defineTask } from "./runner.js";

const purgeDeletedSpaces = jobType<Record<string, never>>("spaces.purge-deleted");

/** Every task of the server, as `main.ts` runs them. */
export function serverTasks({ network }: { network: NetworkPolicy }): AnyTask[] {
  return [
    ...openApiSpecTasks({ fetcher: createFetcher(network) }),
    defineTask(purgeDeletedSpaces, {
      everyMs: 60 * 60 * 1000,
      async run(_payload, job) {
        const removed = await purgeExpiredSpaces(job.db, job.clock.now());
        if (removed > 0) job.logger.info({ removed }, "removed spaces deleted more than 7 days ago");
      },
    }),
  ];
}
