import type { Schema } from "@quire/api-types";
import type { Generated } from "kysely";
import type { JsonText } from "../db/codecs.js";

/**
 * Row types of the event stream, joined into `Database` (src/db/schema.ts): the outbox that webhooks
 * and the audit log (and later integrations) read. Timestamps are ISO 8601 text, as everywhere.
 */
export interface EventsTables {
  events: EventTable;
  unnumbered_events: UnnumberedEventTable;
  event_counters: EventCounterTable;
  event_cursors: EventCursorTable;
}

/** Something that happened in an organization, written in the transaction of its cause. */
export interface EventTable {
  id: string;
  organization_id: string;
  /** 1, 2, 3… per organization, in commit order (see `numberEvents`). */
  sequence: number;
  type: Schema<"EventType">;
  /** The space or site it is about, for subscriptions filtered by one. */
  space_id: string | null;
  site_id: string | null;
  /** The user who caused it; null for the server's own changes. */
  actor_id: string | null;
  /** The API token and client address of the request that caused it; null outside a request. */
  actor_token_id: string | null;
  actor_address: string | null;
  /** Id of the resource it is about (see `targetOf`), for the audit log's filter. */
  target_id: string | null;
  /** The event's `data`, of the schema its type gives. */
  data: JsonText<unknown>;
  created_at: string;
}

/**
 * An event committed and not yet numbered (see `numberEvents`), in the order of `position`: a number
 * on SQLite, a string on PostgreSQL (whose driver gives its bigint as text).
 */
export interface UnnumberedEventTable extends Omit<EventTable, "sequence"> {
  position: Generated<number | string>;
}

/** The columns an event has before it is numbered, and keeps. */
export const EVENT_COLUMNS = [
  "id",
  "organization_id",
  "type",
  "space_id",
  "site_id",
  "actor_id",
  "actor_token_id",
  "actor_address",
  "target_id",
  "data",
  "created_at",
] as const satisfies readonly (keyof UnnumberedEventTable)[];

/** The last sequence number given in an organization. */
export interface EventCounterTable {
  organization_id: string;
  last_sequence: number;
}

/** How far a consumer of the stream has handed on an organization's events. */
export interface EventCursorTable {
  consumer: "webhooks" | "integrations";
  organization_id: string;
  last_sequence: number;
}
