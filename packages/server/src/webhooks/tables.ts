import type { Schema } from "@quire/api-types";
import type { Flag, JsonText } from "../db/codecs.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface WebhooksTables {
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
}

export interface WebhookTable {
  id: string;
  organization_id: string;
  url: string;
  /** Types sent; empty for every type. */
  events: JsonText<Schema<"EventType">[]>;
  space_id: string | null;
  site_id: string | null;
  description: string | null;
  /** The signing secret, encrypted under the server key and bound to the webhook (`encryptSecrets`). */
  secret: JsonText<Record<string, string>>;
  active: Flag;
  /** Why the server turned it off; null when it is on or an admin turned it off. */
  disabled_reason: string | null;
  disabled_at: string | null;
  /** The organization's last event when the webhook was made: only later ones are sent to it. */
  after_sequence: number;
  /** The runner sending its deliveries, until `lease_until`: one at a time, so that they go in order. */
  lease_token: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveryTable {
  id: string;
  webhook_id: string;
  event_id: string;
  /** Its place in the webhook's queue: deliveries are sent in this order, each once the one before ended. */
  position: number;
  status: Schema<"WebhookDeliveryStatus">;
  attempts: number;
  /** A delivery is given up a day after it. */
  first_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  /** When it is due, while it is pending. */
  next_attempt_at: string | null;
  created_at: string;
}

declare module "../db/schema.js" {
  interface Database extends WebhooksTables {}
}
