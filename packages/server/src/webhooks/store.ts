import type { Schema } from "@quire/api-types";
import { type ExpressionBuilder, sql } from "kysely";
import { callerMembership } from "../access.js";
import type { Clock, IdGenerator } from "../context.js";
import { flag, fromJson, isSet, timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { memberLookup } from "../db/member-lookup.js";
import { preparedRead } from "../db/prepared.js";
import type { Database } from "../db/schema.js";
import { moveCursor } from "../events/cursors.js";
import { eventsAfter } from "../events/read.js";
import type { EventTable } from "../events/tables.js";
import { notFound } from "../http/errors.js";
import { keysetList } from "../http/paging.js";
import { enqueue, jobType } from "../jobs/queue.js";
import type { Membership } from "../policy.js";
import type { WebhookDeliveryTable, WebhookTable } from "./tables.js";

/** Sends the pending deliveries of one webhook, in order. */
export const deliverWebhook = jobType<{ webhookId: string }>("webhooks.deliver");

type Context = { clock: Clock; ids: IdGenerator };

const webhookWithCaller = preparedRead(
  (db, args: { organizationId: string; webhookId: string; callerId: string }) =>
    db
      .selectFrom("organizations as o")
      .leftJoin("webhooks as w", (join) =>
        join.onRef("w.organization_id", "=", "o.id").on("w.id", "=", args.webhookId),
      )
      .selectAll("w")
      .select(callerMembership(args.callerId, sql.ref("o.id")).as("caller_membership"))
      .where("o.id", "=", args.organizationId),
);

/** The webhook and the caller's role in its organization, in one statement; 404 for either missing. */
export async function webhookForCaller(
  db: Db,
  args: { organizationId: string; webhookId: string; callerId: string },
): Promise<{ webhook: WebhookTable; callerRole: Membership }> {
  const [found] = await webhookWithCaller(db, args);
  const { row, role: callerRole } = memberLookup(found, "Organization");
  if (row.id === null) throw notFound("Webhook");
  return { webhook: row as WebhookTable, callerRole };
}

/** The webhooks of an organization, oldest first. */
export const listWebhooks = keysetList(
  (db, args: { organizationId: string }) =>
    db.selectFrom("webhooks").selectAll().where("organization_id", "=", args.organizationId),
  { created_at: "string", id: "string" },
);

export async function webhookById(db: Db, id: string): Promise<WebhookTable | undefined> {
  return db.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function insertWebhook(db: Db, row: WebhookTable): Promise<void> {
  await db.insertInto("webhooks").values(row).execute();
}

export async function updateWebhook(db: Db, id: string, changes: Partial<WebhookTable>): Promise<void> {
  await db.updateTable("webhooks").set(changes).where("id", "=", id).execute();
}

/** The webhook and its deliveries. */
export async function deleteWebhook(db: Db, id: string): Promise<void> {
  await db.deleteFrom("webhook_deliveries").where("webhook_id", "=", id).execute();
  await db.deleteFrom("webhooks").where("id", "=", id).execute();
}

export async function inOrganization(
  db: Db,
  table: "spaces" | "sites",
  organizationId: string,
  id: string,
): Promise<boolean> {
  const row = await db
    .selectFrom(table)
    .select("id")
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

const deliveryKeys = { created_at: "string", id: "string" } as const;

/** The deliveries of a webhook, newest first. */
const allDeliveries = keysetList(
  (db, args: { webhookId: string }) =>
    db.selectFrom("webhook_deliveries").selectAll().where("webhook_id", "=", args.webhookId),
  deliveryKeys,
  { descending: true },
);

/** The deliveries of a webhook with a status, newest first. */
const deliveriesWithStatus = keysetList(
  (db, args: { webhookId: string; status: string }) =>
    db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("webhook_id", "=", args.webhookId)
      .where("status", "=", args.status as Schema<"WebhookDeliveryStatus">),
  deliveryKeys,
  { descending: true },
);

export function listDeliveries(
  db: Db,
  args: { webhookId: string; status?: Schema<"WebhookDeliveryStatus"> },
  query: { page?: string; limit?: number },
) {
  const { webhookId, status } = args;
  return status === undefined
    ? allDeliveries(db, { webhookId }, query)
    : deliveriesWithStatus(db, { webhookId, status }, query);
}

export function deliveryOf(
  db: Db,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDeliveryTable | undefined> {
  return db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("id", "=", deliveryId)
    .where("webhook_id", "=", webhookId)
    .executeTakeFirst();
}

/** A delivery of `eventId` to `webhookId`, due now, at `position` in the webhook's queue. */
function pendingDelivery(
  id: string,
  now: string,
  { webhookId, eventId, position }: { webhookId: string; eventId: string; position: number },
): WebhookDeliveryTable {
  return {
    id,
    webhook_id: webhookId,
    event_id: eventId,
    position,
    status: "pending",
    attempts: 0,
    first_attempt_at: null,
    last_attempt_at: null,
    last_status_code: null,
    last_duration_ms: null,
    last_error: null,
    next_attempt_at: now,
    created_at: now,
  };
}

/** The webhook's last place in its queue; 0 when it is empty. */
async function lastPosition(db: Db, webhookId: string): Promise<number> {
  const row = await db
    .selectFrom("webhook_deliveries")
    .select((eb) => eb.fn.max("position").as("last"))
    .where("webhook_id", "=", webhookId)
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/** A delivery of the event to the webhook, queued after its others, with the columns given. */
export async function queueDelivery(
  db: Db,
  { clock, ids }: Context,
  webhookId: string,
  eventId: string,
  columns: Partial<WebhookDeliveryTable> = {},
): Promise<WebhookDeliveryTable> {
  const row: WebhookDeliveryTable = {
    ...pendingDelivery(ids.next(), timestamp(clock.now()), {
      webhookId,
      eventId,
      position: (await lastPosition(db, webhookId)) + 1,
    }),
    ...columns,
  };
  await db.insertInto("webhook_deliveries").values(row).execute();
  return row;
}

/**
 * Makes the deliveries a day of failures gave up pending again, from now (a new day of retries), in
 * their place in the queue: for a webhook turned on again. A failed test is no part of the queue.
 */
export async function resumeFailed(db: Db, webhookId: string, now: string): Promise<void> {
  await db
    .updateTable("webhook_deliveries")
    .set({ status: "pending", next_attempt_at: now, first_attempt_at: null })
    .where("webhook_id", "=", webhookId)
    .where("status", "=", "failed")
    .where("event_id", "not in", (eb) => eb.selectFrom("events").select("id").where("type", "=", "ping"))
    .execute();
}

export const enqueueDelivery = (db: Db, context: Context, webhookId: string) =>
  enqueue(db, context, deliverWebhook, { webhookId });

/* ---- The fan-out: events matched to webhooks. ---- */

/** Whether a webhook takes an event: its type, space and site, and made after the webhook. */
function matches(webhook: WebhookTable, event: EventTable): boolean {
  const types = fromJson(webhook.events);
  return (
    event.sequence > webhook.after_sequence &&
    (types.length === 0 || types.includes(event.type)) &&
    (webhook.space_id === null || webhook.space_id === event.space_id) &&
    (webhook.site_id === null || webhook.site_id === event.site_id)
  );
}

/**
 * Matches up to `limit` new events, in (organization, sequence) order, to the active webhooks of
 * their organization: a pending delivery for each match, the organization's cursor moved past them,
 * a job to send them for each webhook given one. Only organizations with an active webhook are read,
 * each from its cursor or the first event its webhooks take, whichever is later. Returns how many
 * events it read.
 */
export async function fanOut(tx: Db, context: Context, limit: number): Promise<number> {
  const organizations = await tx
    .selectFrom("event_counters as ec")
    .leftJoin("event_cursors as c", (join) =>
      join.onRef("c.organization_id", "=", "ec.organization_id").on("c.consumer", "=", "webhooks"),
    )
    .innerJoin(
      (eb) =>
        eb
          .selectFrom("webhooks")
          .select(["organization_id", (e) => e.fn.min("after_sequence").as("first_after")])
          .where("active", "=", 1)
          .groupBy("organization_id")
          .as("w"),
      (join) => join.onRef("w.organization_id", "=", "ec.organization_id"),
    )
    .select(["ec.organization_id", "c.last_sequence as cursor", "w.first_after"])
    .where(sql<boolean>`ec.last_sequence > coalesce(c.last_sequence, 0)`)
    .orderBy("ec.organization_id")
    .limit(limit)
    .execute();

  let read = 0;
  for (const organization of organizations) {
    if (read >= limit) break;
    const cursor = organization.cursor === null ? null : Number(organization.cursor);
    const start = Math.max(cursor ?? 0, Number(organization.first_after));
    const events = await eventsAfter(tx, organization.organization_id, start, limit - read);
    read += events.length;
    const webhooks = await tx
      .selectFrom("webhooks")
      .selectAll()
      .where("organization_id", "=", organization.organization_id)
      .where("active", "=", 1)
      .orderBy("id")
      .execute();
    const now = timestamp(context.clock.now());
    const positions = new Map<string, number>();
    const deliveries: WebhookDeliveryTable[] = [];
    for (const event of events) {
      // A test goes to the webhook tested only, at once (see `testWebhook`).
      if (event.type === "ping") continue;
      for (const webhook of webhooks) {
        if (!matches(webhook, event)) continue;
        const position = (positions.get(webhook.id) ?? (await lastPosition(tx, webhook.id))) + 1;
        positions.set(webhook.id, position);
        deliveries.push(
          pendingDelivery(context.ids.next(), now, { webhookId: webhook.id, eventId: event.id, position }),
        );
      }
    }
    if (deliveries.length > 0) await tx.insertInto("webhook_deliveries").values(deliveries).execute();
    await moveCursor(tx, "webhooks", organization.organization_id, {
      from: cursor,
      to: events.at(-1)?.sequence ?? start,
    });
    for (const webhookId of positions.keys()) await enqueueDelivery(tx, context, webhookId);
  }
  return read;
}

/* ---- Sending: one runner per webhook at a time, holding its lease. ---- */

/**
 * Takes the webhook for this runner until `until`, if it is active and no other runner holds it;
 * the webhook as taken, or undefined.
 */
export function claimWebhook(
  db: Db,
  webhookId: string,
  { token, now, until }: { token: string; now: string; until: string },
): Promise<WebhookTable | undefined> {
  return db
    .updateTable("webhooks")
    .set({ lease_token: token, lease_until: until })
    .where("id", "=", webhookId)
    .where("active", "=", 1)
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]))
    .returningAll()
    .executeTakeFirst();
}

/** Extends the lease `token` holds; the webhook as it is now, or undefined when the lease was lost. */
export function renewLease(
  db: Db,
  webhookId: string,
  { token, until }: { token: string; until: string },
): Promise<WebhookTable | undefined> {
  return db
    .updateTable("webhooks")
    .set({ lease_until: until })
    .where("id", "=", webhookId)
    .where("lease_token", "=", token)
    .returningAll()
    .executeTakeFirst();
}

export async function releaseLease(db: Db, webhookId: string, token: string): Promise<void> {
  await db
    .updateTable("webhooks")
    .set({ lease_token: null, lease_until: null })
    .where("id", "=", webhookId)
    .where("lease_token", "=", token)
    .execute();
}

/**
 * The first `limit` pending deliveries of the webhook's queue, in order: the first is the only one
 * that may be sent, the others after it has succeeded.
 */
export function queueHeads(db: Db, webhookId: string, limit: number): Promise<WebhookDeliveryTable[]> {
  return db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("webhook_id", "=", webhookId)
    .where("status", "=", "pending")
    .orderBy("position")
    .orderBy("id")
    .limit(limit)
    .execute();
}

/**
 * Records an attempt at one of the webhook's deliveries if `token` still holds the webhook (a runner
 * that lost it records nothing), in one statement: whether the webhook is still on and when it was
 * last changed, or undefined when the lease was lost.
 */
export async function recordAttempt(
  db: Db,
  { webhookId, token }: { webhookId: string; token: string },
  deliveryId: string,
  columns: Partial<WebhookDeliveryTable>,
): Promise<{ active: boolean; updatedAt: string } | undefined> {
  const held = (eb: ExpressionBuilder<Database, "webhook_deliveries">) =>
    eb.selectFrom("webhooks").where("id", "=", webhookId).where("lease_token", "=", token);
  const row = await db
    .updateTable("webhook_deliveries")
    .set(columns)
    .where("id", "=", deliveryId)
    .where((eb) => eb.exists(held(eb).select("id")))
    .returning((eb) => [
      held(eb).select("active").as("active"),
      held(eb).select("updated_at").as("updated_at"),
    ])
    .executeTakeFirst();
  return row && { active: isSet(row.active ?? 0), updatedAt: row.updated_at ?? "" };
}

/** Turns the webhook off, saying why. */
export async function disableWebhook(tx: Db, webhookId: string, reason: string, now: string): Promise<void> {
  await tx
    .updateTable("webhooks")
    .set({ active: flag(false), disabled_reason: reason, disabled_at: now, updated_at: now })
    .where("id", "=", webhookId)
    .execute();
}

/** Active webhooks no runner holds whose queue's head is due: retries that came due. */
export async function webhooksDue(db: Db, now: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom("webhooks as w")
    .select("w.id")
    .where("w.active", "=", 1)
    .where((eb) => eb.or([eb("w.lease_until", "is", null), eb("w.lease_until", "<=", now)]))
    .where((eb) =>
      eb(
        eb
          .selectFrom("webhook_deliveries as d")
          .select("d.next_attempt_at")
          .whereRef("d.webhook_id", "=", "w.id")
          .where("d.status", "=", "pending")
          .orderBy("d.position")
          .orderBy("d.id")
          .limit(1),
        "<=",
        now,
      ),
    )
    .orderBy("w.id")
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Deletes deliveries made before `before` that are no longer pending, at most `limit`; how many. */
export async function deleteOldDeliveries(db: Db, before: string, limit: number): Promise<number> {
  const old = db
    .selectFrom("webhook_deliveries")
    .select("id")
    .where("created_at", "<", before)
    .where("status", "!=", "pending")
    .limit(limit);
  const result = await db.deleteFrom("webhook_deliveries").where("id", "in", old).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Those of `eventIds` a webhook may still send: a delivery of it pending, or failed and waiting for its
 * webhook to be turned on again. The audit log's retention keeps them.
 */
export async function eventsStillToDeliver(db: Db, eventIds: readonly string[]): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("webhook_deliveries")
    .select("event_id")
    .where("event_id", "in", [...eventIds])
    .where("status", "!=", "success")
    .execute();
  return new Set(rows.map((row) => row.event_id));
}
