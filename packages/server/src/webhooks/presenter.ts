import type { Schema } from "@quire/api-types";
import { fromJson, isSet } from "../db/codecs.js";
import { presentEvent } from "../events/record.js";
import type { EventTable } from "../events/tables.js";
import type { Urls } from "../urls.js";
import type { WebhookDeliveryTable, WebhookTable } from "./tables.js";

export const webhookLocation = (urls: Urls, row: Pick<WebhookTable, "organization_id" | "id">) =>
  urls.api(`orgs/${row.organization_id}/webhooks/${row.id}`);

/** A webhook; its secret only when given, in the answers that made it. */
export function presentWebhook(row: WebhookTable, urls: Urls, secret?: string): Schema<"Webhook"> {
  return {
    object: "webhook",
    id: row.id,
    url: row.url,
    events: fromJson(row.events),
    ...(row.space_id !== null && { space: row.space_id }),
    ...(row.site_id !== null && { site: row.site_id }),
    ...(row.description !== null && { description: row.description }),
    active: isSet(row.active),
    ...(row.disabled_reason !== null && { disabledReason: row.disabled_reason }),
    ...(row.disabled_at !== null && { disabledAt: row.disabled_at }),
    ...(secret !== undefined && { secret }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: { location: webhookLocation(urls, row) },
  };
}

export function presentDelivery(row: WebhookDeliveryTable, event: EventTable): Schema<"WebhookDelivery"> {
  return {
    object: "webhook-delivery",
    id: row.id,
    webhook: row.webhook_id,
    event: presentEvent(event),
    status: row.status,
    attempts: row.attempts,
    ...(row.last_attempt_at !== null && {
      lastAttempt: {
        at: row.last_attempt_at,
        ...(row.last_status_code !== null && { statusCode: row.last_status_code }),
        durationMs: row.last_duration_ms ?? 0,
        ...(row.last_error !== null && { error: row.last_error }),
      },
    }),
    ...(row.status === "pending" && row.next_attempt_at !== null && { nextAttemptAt: row.next_attempt_at }),
    createdAt: row.created_at,
  };
}
