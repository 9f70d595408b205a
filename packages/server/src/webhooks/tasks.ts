import { isSet, timestamp } from "../db/codecs.js";
import type { EventDeliverySettings } from "../events/delivery-settings.js";
import { eventsById } from "../events/read.js";
import { jobType } from "../jobs/queue.js";
import { type AnyTask, defineTask, type JobContext } from "../jobs/runner.js";
import type { Fetcher } from "../net/fetch.js";
import { afterAttempt, revealSecret, sendEvent } from "./delivery.js";
import {
  claimWebhook,
  deleteOldDeliveries,
  deliverWebhook,
  disableWebhook,
  enqueueDelivery,
  fanOut,
  queueHead,
  recordAttempt,
  releaseLease,
  renewLease,
  webhooksDue,
} from "./store.js";
import type { WebhookTable } from "./tables.js";

const fanOutEvents = jobType<Record<string, never>>("webhooks.fan-out");
const sweepRetries = jobType<Record<string, never>>("webhooks.sweep");
const deleteOldDeliveriesJob = jobType<Record<string, never>>("webhooks.retention");

const DAY_MS = 24 * 3_600_000;
/** Deliveries that ended are kept this long, for the deliveries list. */
const KEPT_FOR_MS = 30 * DAY_MS;
const BATCH = 1000;
/** Sent by one job at most, after which it queues another: other webhooks get their turn on the runner. */
const MAX_PER_JOB = 100;

/**
 * The tasks of this area. The fan-out turns new events into pending deliveries, each webhook's a
 * queue; a deliver job sends one webhook's queue in order, holding a lease on the webhook so that no
 * other runner sends it meanwhile (no database lock is held while it waits for a receiver); the sweep
 * queues a deliver job for the webhooks whose retry came due; the retention deletes old deliveries.
 */
export function webhooksTasks(
  deps: { fetcher: Fetcher; secretKey: string },
  settings: EventDeliverySettings,
): AnyTask[] {
  // The job's own lease (QUIRE_JOB_LEASE_MS), renewed at each attempt, and at least three attempts long:
  // a live runner keeps its webhook, and a dead one's is taken again when its job is.
  const leaseOf = (job: JobContext) => Math.max(job.leaseMs, 3 * settings.timeoutMs);

  /** Sends the head of the queue and records how it went; the webhook to go on with, if any. */
  async function attemptHead(
    job: JobContext,
    webhook: WebhookTable,
    token: string,
    head: NonNullable<Awaited<ReturnType<typeof queueHead>>>,
  ): Promise<WebhookTable | undefined> {
    const event = (await eventsById(job.db, [head.event_id])).get(head.event_id);
    if (!event) throw new Error(`The event ${head.event_id} of delivery ${head.id} is missing`);
    const sentAt = job.clock.now();
    const attempt = await sendEvent(
      deps.fetcher,
      { url: webhook.url, secret: revealSecret(deps.secretKey, webhook) },
      event,
      { now: sentAt, timeoutMs: settings.timeoutMs, signal: job.signal },
    );
    const now = job.clock.now();
    const columns = afterAttempt(head, attempt, now);
    return job.db.transaction().execute(async (tx) => {
      // Recorded only by the lease's holder: a runner that lost it (or whose webhook was deleted) stops.
      const held = await renewLease(tx, webhook.id, { token, until: timestamp(now, leaseOf(job)) });
      if (!held) return undefined;
      await recordAttempt(tx, head.id, columns);
      if (columns.status === "failed") {
        await disableWebhook(
          tx,
          webhook.id,
          `Deliveries failed for 24 hours: ${attempt.error}`,
          timestamp(now),
        );
        await releaseLease(tx, webhook.id, token);
        job.logger.warn(
          { webhook: webhook.id, error: attempt.error },
          "webhook turned off after a day of failures",
        );
        return undefined;
      }
      // Turned off meanwhile by an admin: what is left waits.
      if (!isSet(held.active)) {
        await releaseLease(tx, webhook.id, token);
        return undefined;
      }
      return held;
    });
  }

  const deliver = defineTask(deliverWebhook, {
    async run({ webhookId }, job) {
      const token = job.ids.next();
      const claim = () => {
        const now = job.clock.now();
        return claimWebhook(job.db, webhookId, {
          token,
          now: timestamp(now),
          until: timestamp(now, leaseOf(job)),
        });
      };
      const due = (head: { next_attempt_at: string | null } | undefined) =>
        head !== undefined && (head.next_attempt_at ?? "") <= timestamp(job.clock.now());
      const started = Date.now();
      let sent = 0;
      // Held by another runner, or off: that runner sends what this job was queued for.
      let webhook = await claim();
      while (webhook) {
        if (sent >= MAX_PER_JOB || Date.now() - started > job.leaseMs / 2) {
          await job.db.transaction().execute(async (tx) => {
            await releaseLease(tx, webhookId, token);
            await enqueueDelivery(tx, job, webhookId);
          });
          return;
        }
        const head = await queueHead(job.db, webhookId);
        if (!head || !due(head)) {
          await releaseLease(job.db, webhookId, token);
          // A fan-out may have queued more after the look above, its job finding the lease held.
          if (!due(await queueHead(job.db, webhookId))) return;
          webhook = await claim();
          continue;
        }
        try {
          webhook = await attemptHead(job, webhook, token, head);
        } catch (err) {
          await releaseLease(job.db, webhookId, token);
          throw err;
        }
        sent += 1;
      }
    },
  });

  return [
    deliver,
    defineTask(fanOutEvents, {
      everyMs: settings.fanOutMs,
      async run(_payload, job) {
        // One batch per run, with the run's completion: a run taken over late writes nothing twice.
        await job.commit(async (tx) => {
          await fanOut(tx, job, settings.fanOutBatch);
        });
      },
    }),
    defineTask(sweepRetries, {
      everyMs: settings.sweepMs,
      async run(_payload, job) {
        const due = await webhooksDue(job.db, timestamp(job.clock.now()), BATCH);
        await job.commit(async (tx) => {
          for (const webhookId of due) await enqueueDelivery(tx, job, webhookId);
        });
      },
    }),
    defineTask(deleteOldDeliveriesJob, {
      everyMs: DAY_MS,
      async run(_payload, job) {
        const before = timestamp(job.clock.now(), -KEPT_FOR_MS);
        while ((await deleteOldDeliveries(job.db, before, BATCH)) === BATCH);
      },
    }),
  ];
}
