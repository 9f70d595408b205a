import type { ColumnsOf } from "../db/columns.js";
import type { EventsTables } from "./tables.js";

/** Every column of the event tables with its nullability, checked by src/db/schema.test.ts. */
export const eventsColumns: ColumnsOf<EventsTables> = {
  events: {
    id: "not null",
    organization_id: "not null",
    sequence: "not null",
    type: "not null",
    space_id: "null",
    site_id: "null",
    actor_id: "null",
    actor_token_id: "null",
    actor_address: "null",
    target_id: "null",
    data: "not null",
    created_at: "not null",
  },
  event_counters: {
    organization_id: "not null",
    last_sequence: "not null",
  },
  event_cursors: {
    consumer: "not null",
    organization_id: "not null",
    last_sequence: "not null",
  },
};
