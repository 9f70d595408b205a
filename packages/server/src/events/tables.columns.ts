import type { ColumnsOf } from "../db/columns.js";
import type { EventsTables } from "./tables.js";

/** An event's columns but its number: an event's before it is numbered. */
const eventColumnsButSequence: Omit<ColumnsOf<EventsTables>["events"], "sequence"> = {
  id: "not null",
  organization_id: "not null",
  type: "not null",
  space_id: "null",
  site_id: "null",
  actor_id: "null",
  actor_token_id: "null",
  actor_address: "null",
  target_id: "null",
  data: "not null",
  created_at: "not null",
};

/** Every column of the event tables with its nullability, checked by src/db/schema.test.ts. */
export const eventsColumns: ColumnsOf<EventsTables> = {
  events: {
    sequence: "not null",
    ...eventColumnsButSequence,
  },
  unnumbered_events: { position: "not null", ...eventColumnsButSequence },
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
