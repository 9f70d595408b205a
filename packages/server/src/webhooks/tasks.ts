import { timestamp } from "../db/codecs.js";
import type { EventDeliverySettings } from "../events/delivery-settings.js";
import { numberEvents } from "../events/numbering.js";
import { eventsById } from "../events/read.js";
import type { EventTable } from "../events/tables.js";
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
  queueHeads,
  recordAttempt,
  releaseLease,
  renewLease,
  webhooksDue,
} from "./store.js";
import type { WebhookDeliveryTable, WebhookTable } from "./tables.js";

const fanOutEvents = jobType<Record<string, never>>("webhooks.fan-out");
const sweepRetries = jobType<Record<string, never>>("webhooks.sweep");
const deleteOldDeliveriesJob = jobType<Record<string, never>>("webhooks.retention");

const DAY_MS = 24 * 3_600_000;
/** Deliveries that ended are kept this long, for the deliveries list. */
const KEPT_FOR_MS = 30 * DAY_MS;
const BATCH = 1000;
/** Sent by one job at most, after which it queues another: other webhooks get their turn on the runner. */
const MAX_PER_JOB = 100;
/** Deliveries read from a webhook's queue at a time, with their events. */
const HEADS = 25;

/** What a deliver job does after an attempt (see `attempt`). */
type Next = "next" | "changed" | "wait" | "stop";

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
  // The job's own lease (QUIRE_JOB_LEASE_MS), renewed as it goes, and at least three attempts long:
  // a live runner keeps its webhook, and a dead one's is taken again when its job is.
  const leaseOf = (job: JobContext) => Math.max(job.leaseMs, 3 * settings.timeoutMs);

  /**
   * Sends one delivery and records how it went, if this runner still holds the webhook: what comes
   * next, the queue's next delivery (after reading the webhook again if it was changed meanwhile), a
   * wait for this one's retry, or nothing for this runner (the webhook was lost to another, deleted,
   * turned off, or given up on).
   */
  async function attempt(
    job: JobContext,
    webhook: WebhookTable,
    token: string,
    delivery: WebhookDeliveryTable,
    event: EventTable,
  ): Promise<Next> {
    const held = { webhookId: webhook.id, token };
    const outcome = await sendEvent(
      deps.fetcher,
      { url: webhook.url, secret: revealSecret(deps.secretKey, webhook) },
      event,
      { now: job.clock.now(), timeoutMs: settings.timeoutMs, signal: job.signal },
    );
    const now = job.clock.now();
    const columns = afterAttempt(delivery, outcome, now);
    if (columns.status === "failed") {
      await job.db.transaction().execute(async (tx) => {
        if (!(await recordAttempt(tx, held, delivery.id, columns))) return;
        await disableWebhook(
          tx,
          webhook.id,
          `Deliveries failed for 24 hours: ${outcome.error}`,
          timestamp(now),
        );
        await releaseLease(tx, webhook.id, token);
      });
      job.logger.warn(
        { webhook: webhook.id, error: outcome.error },
        "webhook turned off after a day of failures",
      );
      return "stop";
    }
    const recorded = await recordAttempt(job.db, held, delivery.id, columns);
    // Lost to another runner, or deleted: that runner, if any, goes on.
    if (!recorded) return "stop";
    // Turned off meanwhile by an admin: what is left waits.
    if (!recorded.active) {
      await releaseLease(job.db, webhook.id, token);
      return "stop";
    }
    if (columns.status !== "success") return "wait";
    return recorded.updatedAt === webhook.updated_at ? "next" : "changed";
  }

  const deliver = defineTask(deliverWebhook, {
    async run({ webhookId }, job) {
      const token = job.ids.next();
      const leaseMs = leaseOf(job);
      let leaseUntil = 0;
      const claim = async () => {
        const now = job.clock.now();
        const claimed = await claimWebhook(job.db, webhookId, {
          token,
          now: timestamp(now),
          until: timestamp(now, leaseMs),
        });
        leaseUntil = now.getTime() + leaseMs;
        return claimed;
      };
      /**
       * Renewed before an attempt once half of it is gone, so that the attempt ends (in time) well
       * inside it; and to read the webhook again after a change.
       */
      const renewed = async (webhook: WebhookTable, changed: boolean) => {
        const now = job.clock.now();
        if (!changed && leaseUntil - now.getTime() > leaseMs / 2) return webhook;
        leaseUntil = now.getTime() + leaseMs;
        return renewLease(job.db, webhookId, { token, until: timestamp(now, leaseMs) });
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
        const heads = await queueHeads(job.db, webhookId, Math.min(HEADS, MAX_PER_JOB - sent));
        if (!due(heads[0])) {
          await releaseLease(job.db, webhookId, token);
          // A fan-out may have queued more after the look above, its job finding the lease held.
          if (!due((await queueHeads(job.db, webhookId, 1))[0])) return;
          webhook = await claim();
          continue;
        }
        const events = await eventsById(
          job.db,
          heads.map((head) => head.event_id),
        );
        // In order, each after the one before it succeeded; a failure waits for its retry.
        let next: Next = "next";
        try {
          for (const head of heads) {
            const event = events.get(head.event_id);
            if (!event) throw new Error(`The event ${head.event_id} of delivery ${head.id} is missing`);
            if (!due(head)) break;
            webhook = await renewed(webhook, next === "changed");
            if (!webhook) return;
            sent += 1;
            next = await attempt(job, webhook, token, head, event);
            if (next === "wait" || next === "stop") break;
          }
        } catch (err) {
          await releaseLease(job.db, webhookId, token);
          throw err;
        }
        if (next === "stop") return;
      }
    },
  });

  return [
    deliver,
    defineTask(fanOutEvents, {
      everyMs: settings.fanOutMs,
      async run(_payload, job) {
        await numberEvents(job.db);
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
