import { timestamp } from "../db/codecs.js";
import type { EventDeliverySettings } from "../events/delivery-settings.js";
import { numberEvents } from "../events/numbering.js";
import { enqueue, jobType } from "../jobs/queue.js";
import { type AnyTask, defineTask } from "../jobs/runner.js";
import type { Fetcher } from "../net/fetch.js";
import { postDelivery } from "../net/post.js";
import type { Urls } from "../urls.js";
import {
  afterAttempt,
  anyDue,
  type Claimed,
  claimDue,
  deleteOldIntegrationEvents,
  deliverIntegrationEvents,
  fanOutIntegrationEvents,
  integrationRequestHeaders,
  recordAttempt,
} from "./events.js";

const fanOut = jobType<Record<string, never>>("integrations.events.fan-out");
const sweep = jobType<Record<string, never>>("integrations.events.sweep");
const retention = jobType<Record<string, never>>("integrations.events.retention");

const DAY_MS = 24 * 3_600_000;
/** Records that ended are kept this long, for `listIntegrationEvents`. */
const KEPT_FOR_MS = 30 * DAY_MS;
const BATCH = 1000;
/** Records a deliver job claims at a time, and sends at most before it queues another. */
const CLAIM = 20;
const MAX_PER_JOB = 200;

/**
 * The tasks of integration events: the fan-out makes a record per installation and event it may
 * see; a deliver job sends the due records (each claimed for the job's lease, so that two runners
 * never send one at once), POSTing the payload signed as GitBook signs requests to integrations; the
 * sweep queues a deliver job when retries came due; the retention deletes old records.
 */
export function integrationEventTasks(
  deps: { fetcher: Fetcher; secretKey: string; urls: Urls },
  settings: EventDeliverySettings,
): AnyTask[] {
  async function send(record: Claimed, now: Date, signal: AbortSignal) {
    if (record.events_url === null || record.signing_secret === null)
      return {
        at: timestamp(now),
        ok: false,
        durationMs: 0,
        error: "The integration no longer declares an events URL.",
      };
    const body = record.payload as string;
    const integration = { id: record.integration_id, sealedSecret: record.signing_secret };
    return postDelivery(
      deps.fetcher,
      record.events_url,
      body,
      integrationRequestHeaders(deps.secretKey, integration, body),
      { now, timeoutMs: settings.timeoutMs, signal },
    );
  }

  return [
    defineTask(deliverIntegrationEvents, {
      async run(_payload, job) {
        const token = job.ids.next();
        const started = Date.now();
        let sent = 0;
        for (;;) {
          if (sent >= MAX_PER_JOB || Date.now() - started > job.leaseMs / 2) {
            await enqueue(job.db, job, deliverIntegrationEvents, {});
            return;
          }
          const now = job.clock.now();
          const leaseMs = Math.max(job.leaseMs, 3 * settings.timeoutMs);
          const claimed = await claimDue(job.db, {
            token,
            now: timestamp(now),
            until: timestamp(now, leaseMs),
            limit: CLAIM,
          });
          if (claimed.length === 0) return;
          // Each record on its own: no order is promised between them, as GitBook promises none.
          await Promise.all(
            claimed.map(async (record) => {
              const attempt = await send(record, job.clock.now(), job.signal);
              await recordAttempt(job.db, record.id, token, afterAttempt(record, attempt, job.clock.now()));
            }),
          );
          sent += claimed.length;
        }
      },
    }),
    defineTask(fanOut, {
      everyMs: settings.fanOutMs,
      async run(_payload, job) {
        await numberEvents(job.db);
        // One batch per run, with the run's completion: a run taken over late writes nothing twice.
        await job.commit(async (tx) => {
          await fanOutIntegrationEvents(tx, job, deps.urls, settings.fanOutBatch);
        });
      },
    }),
    defineTask(sweep, {
      everyMs: settings.sweepMs,
      async run(_payload, job) {
        if (!(await anyDue(job.db, timestamp(job.clock.now())))) return;
        await job.commit(async (tx) => {
          await enqueue(tx, job, deliverIntegrationEvents, {});
        });
      },
    }),
    defineTask(retention, {
      everyMs: DAY_MS,
      async run(_payload, job) {
        const before = timestamp(job.clock.now(), -KEPT_FOR_MS);
        while ((await deleteOldIntegrationEvents(job.db, before, BATCH)) === BATCH);
      },
    }),
  ];
}
