import type { ColumnsOf } from "../db/columns.js";
import type { WebhooksTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const webhooksColumns: ColumnsOf<WebhooksTables> = {
  webhooks: {
    id: "not null",
    organization_id: "not null",
    url: "not null",
    events: "not null",
    space_id: "null",
    site_id: "null",
    description: "null",
    secret: "not null",
    active: "not null",
    disabled_reason: "null",
    disabled_at: "null",
    after_sequence: "not null",
    lease_token: "null",
    lease_until: "null",
    created_at: "not null",
    updated_at: "not null",
  },
  webhook_deliveries: {
    id: "not null",
    webhook_id: "not null",
    event_id: "not null",
    position: "not null",
    status: "not null",
    attempts: "not null",
    first_attempt_at: "null",
    last_attempt_at: "null",
    last_status_code: "null",
    last_duration_ms: "null",
    last_error: "null",
    next_attempt_at: "null",
    created_at: "not null",
  },
};
