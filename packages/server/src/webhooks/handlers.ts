import type { Schema } from "@quire/api-types";
import type { AccessMap, AreaHandlers } from "../area.js";
import { flag, isSet, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { EventDeliverySettings } from "../events/delivery-settings.js";
import { numberEvents } from "../events/numbering.js";
import { eventsById, lastSequenceOf } from "../events/read.js";
import { recordEvent } from "../events/record.js";
import { badRequest, notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { onOrganization } from "../organizations/index.js";
import type { Services } from "../services.js";
import { onWebhook } from "./access.js";
import { afterAttempt, generateSecret, revealSecret, sealSecret, sendEvent } from "./delivery.js";
import { canManageWebhooks } from "./policy.js";
import { presentDelivery, presentWebhook, webhookLocation } from "./presenter.js";
import {
  deleteWebhook,
  deliveryOf,
  enqueueDelivery,
  inOrganization,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  queueDelivery,
  resumeFailed,
  updateWebhook,
} from "./store.js";
import type { WebhookDeliveryTable, WebhookTable } from "./tables.js";

const MANAGE = "manage the webhooks of this organization";

const managesWebhooks = onOrganization(MANAGE, ({ role }) => canManageWebhooks(role));
const managesWebhook = onWebhook(MANAGE, ({ role }) => canManageWebhooks(role));

export const webhooksAccess = {
  listWebhooks: managesWebhooks,
  createWebhook: managesWebhooks,
  getWebhook: managesWebhook,
  updateWebhook: managesWebhook,
  deleteWebhook: managesWebhook,
  testWebhook: managesWebhook,
  listWebhookDeliveries: managesWebhook,
  redeliverWebhookDelivery: managesWebhook,
} satisfies AccessMap;

/** The URL to send to: http(s) only (the network policy decides which hosts, when sending). */
function checkedUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest("`url` is not a URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw badRequest("`url` must be an https:// (or http://) URL.");
  return url.href;
}

/** The space or site a webhook is filtered by, once it is the organization's: 400 otherwise. */
async function checkedFilter(
  db: Db,
  organizationId: string,
  field: "space" | "site",
  id: string | null | undefined,
): Promise<string | null | undefined> {
  if (id === undefined || id === null) return id;
  if (!(await inOrganization(db, field === "space" ? "spaces" : "sites", organizationId, id)))
    throw badRequest(`\`${field}\` is not a ${field} of this organization.`);
  return id;
}

const eventTypes = (events: readonly Schema<"EventType">[] | undefined) => toJson([...new Set(events ?? [])]);

export function webhooksHandlers(
  services: Services,
  settings: EventDeliverySettings,
): AreaHandlers<typeof webhooksAccess> {
  const { db, urls, ids, now, secretKey, fetcher, clock } = services;

  /** Deliveries as the API shows them, their events read at once. */
  const presentDeliveries = async (rows: readonly WebhookDeliveryTable[]) => {
    const events = await eventsById(
      db,
      rows.map((row) => row.event_id),
    );
    return rows.flatMap((row) => {
      const event = events.get(row.event_id);
      return event ? [presentDelivery(row, event)] : [];
    });
  };

  return {
    async listWebhooks({ path, query }) {
      const page = await listWebhooks(db, { organizationId: path.organizationId }, query);
      return ok(presentPage(page, (row) => presentWebhook(row, urls)));
    },

    async createWebhook({ body }, { organization }) {
      const url = checkedUrl(body.url);
      const space = await checkedFilter(db, organization.id, "space", body.space);
      const site = await checkedFilter(db, organization.id, "site", body.site);
      const id = ids.next();
      const secret = body.secret ?? generateSecret();
      const at = now();
      const active = body.active ?? true;
      // The events committed so far numbered, the webhook takes those numbered after them.
      await numberEvents(db);
      const row: WebhookTable = {
        id,
        organization_id: organization.id,
        url,
        events: eventTypes(body.events),
        space_id: space ?? null,
        site_id: site ?? null,
        description: body.description ?? null,
        secret: sealSecret(secretKey, id, secret),
        active: flag(active),
        disabled_reason: null,
        disabled_at: active ? null : at,
        // Events recorded from now on, not those before it.
        after_sequence: await lastSequenceOf(db, organization.id),
        lease_token: null,
        lease_until: null,
        created_at: at,
        updated_at: at,
      };
      await insertWebhook(db, row);
      return created(presentWebhook(row, urls, secret));
    },

    getWebhook(_input, { webhook }) {
      return ok(presentWebhook(webhook, urls));
    },

    async updateWebhook({ body }, { webhook }) {
      const changes: Partial<WebhookTable> = {};
      if (body.url !== undefined) changes.url = checkedUrl(body.url);
      if (body.events !== undefined) changes.events = eventTypes(body.events);
      const space = await checkedFilter(db, webhook.organization_id, "space", body.space);
      if (space !== undefined) changes.space_id = space;
      const site = await checkedFilter(db, webhook.organization_id, "site", body.site);
      if (site !== undefined) changes.site_id = site;
      if (body.description !== undefined) changes.description = body.description;
      let secret: string | undefined;
      if (body.rotateSecret) {
        secret = generateSecret();
        changes.secret = sealSecret(secretKey, webhook.id, secret);
      }
      const at = now();
      const activating = body.active === true && !isSet(webhook.active);
      if (body.active !== undefined && body.active !== isSet(webhook.active)) {
        changes.active = flag(body.active);
        changes.disabled_reason = null;
        changes.disabled_at = body.active ? null : at;
      }
      if (Object.keys(changes).length > 0) changes.updated_at = at;
      if (activating) await numberEvents(db);
      await services.transaction(async (tx) => {
        if (activating) {
          // Events from now on, and what waited in the queue, from the delivery that failed.
          changes.after_sequence = await lastSequenceOf(tx, webhook.organization_id);
          await resumeFailed(tx, webhook.id, at);
          await enqueueDelivery(tx, services, webhook.id);
        }
        if (Object.keys(changes).length > 0) await updateWebhook(tx, webhook.id, changes);
      });
      return ok(presentWebhook({ ...webhook, ...changes }, urls, secret));
    },

    async deleteWebhook(_input, { webhook }) {
      await services.transaction((tx) => deleteWebhook(tx, webhook.id));
      return noContent();
    },

    async testWebhook({ caller }, { webhook }) {
      // Recorded as every event is (the stream has no gaps), but never fanned out: sent here, at once.
      const id = ids.next();
      await services.transaction((tx) =>
        recordEvent(tx, services, {
          id,
          organizationId: webhook.organization_id,
          type: "ping",
          data: { webhook: webhook.id },
          actorId: caller.user.id,
        }),
      );
      await numberEvents(db);
      const event = (await eventsById(db, [id])).get(id);
      if (!event) throw new Error(`The ping event ${id} was committed but cannot be read`);
      const sentAt = clock.now();
      const attempt = await sendEvent(
        fetcher,
        { url: webhook.url, secret: revealSecret(secretKey, webhook) },
        event,
        { now: sentAt, timeoutMs: settings.timeoutMs },
      );
      // One attempt, never retried: a failed test does not turn the webhook off.
      const delivery = await queueDelivery(db, services, webhook.id, event.id, {
        ...afterAttempt({ attempts: 0, first_attempt_at: null }, attempt, sentAt),
        status: attempt.ok ? "success" : "failed",
        next_attempt_at: null,
      });
      return ok(presentDelivery(delivery, event));
    },

    async listWebhookDeliveries({ query }, { webhook }) {
      const { status, ...paging } = query;
      const page = await listDeliveries(db, { webhookId: webhook.id, ...(status && { status }) }, paging);
      // Their events read at once, for the whole page.
      return ok(presentPage({ ...page, rows: await presentDeliveries(page.rows) }, (delivery) => delivery));
    },

    async redeliverWebhookDelivery({ path }, { webhook }) {
      const original = await deliveryOf(db, webhook.id, path.deliveryId);
      if (!original) throw notFound("Delivery");
      const delivery = await services.transaction(async (tx) => {
        const queued = await queueDelivery(tx, services, webhook.id, original.event_id);
        await enqueueDelivery(tx, services, webhook.id);
        return queued;
      });
      const [presented] = await presentDeliveries([delivery]);
      if (!presented) throw notFound("Event");
      return {
        status: 201 as const,
        headers: { location: `${webhookLocation(urls, webhook)}/deliveries` },
        body: presented,
      };
    },
  };
}
