import { AsyncLocalStorage } from "node:async_hooks";
import type { Schema } from "@quire/api-types";
import type { Clock, IdGenerator } from "../context.js";
import { fromJson, timestamp, toJson } from "../db/codecs.js";
import { runWithCommit } from "../db/commit-pipeline.js";
import type { Db } from "../db/database.js";
import { compiledWrite } from "../db/prepared.js";
import { requestOrigin } from "../http/request-context.js";
import { EVENT_COLUMNS, type EventTable } from "./tables.js";
import { targetOf } from "./targets.js";

export type EventType = Schema<"EventType">;

/** The event of type `T`, as the contract gives it. */
export type EventOf<T extends EventType> = Extract<Schema<"WebhookEvent">, { type: T }>;

/** What an event of type `T` says. */
export type EventData<T extends EventType> = EventOf<T>["data"];

export interface NewEvent<T extends EventType> {
  /** Its id, given when the caller reads the event back once committed; a new one by default. */
  id?: string;
  organizationId: string;
  type: T;
  data: EventData<T>;
  /** The user who made the change; omitted for the server's own. */
  actorId?: string;
  /** The space or site it is about, for webhooks that filter by one. */
  spaceId?: string;
  siteId?: string;
}

const eventsOff = new AsyncLocalStorage<true>();

/**
 * Runs `work` recording no event: the events bench's "events off" side, which measures what recording
 * costs the writes that cause them (the same server, database and requests, alternated with the
 * recording side), and a migration's test that writes rows into a schema older than the event
 * tables. Nothing else calls it: an event is part of every change that commits.
 */
export const withoutEvents = <T>(work: () => T): T => eventsOff.run(true, work);

/**
 * Records an event. Call it with the transaction that makes the change: the event then exists if and
 * only if the change commits. Within a request, the request's token and client address go with it
 * (the audit log shows them); the job runner's work has none. It is numbered once committed (see
 * `numberEvents`): the write locks no counter, and on PostgreSQL the insert is sent with the COMMIT
 * (`runWithCommit`), in the same round trip.
 */
export async function recordEvent<T extends EventType>(
  tx: Db,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  event: NewEvent<T>,
): Promise<void> {
  if (eventsOff.getStore()) return;
  const origin = requestOrigin();
  await runWithCommit(
    tx,
    insertEvent(tx, {
      id: event.id ?? ids.next(),
      organization_id: event.organizationId,
      type: event.type,
      space_id: event.spaceId ?? null,
      site_id: event.siteId ?? null,
      actor_id: event.actorId ?? null,
      actor_token_id: origin?.tokenId ?? null,
      actor_address: origin?.address ?? null,
      target_id: targetOf(event.organizationId, event.type, event.data).id,
      data: toJson(event.data),
      created_at: timestamp(clock.now()),
    }),
  );
}

const insertEvent = compiledWrite((db, e: Omit<EventTable, "sequence">) =>
  db
    .insertInto("unnumbered_events")
    .values(
      Object.fromEntries(EVENT_COLUMNS.map((column) => [column, e[column]])) as Omit<EventTable, "sequence">,
    ),
);

/** An event as webhooks send it. */
export function presentEvent(row: EventTable): Schema<"WebhookEvent"> {
  return {
    object: "event",
    id: row.id,
    type: row.type,
    version: 1,
    organization: row.organization_id,
    sequence: Number(row.sequence),
    createdAt: row.created_at,
    ...(row.actor_id !== null && { actor: row.actor_id }),
    data: fromJson(row.data),
  } as Schema<"WebhookEvent">;
}

/**
 * Deletes events past their retention (the audit area's task) and returns how many. Only events:
 * each organization's counter stays, so numbers are never given twice.
 */
export async function forgetEvents(db: Db, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom("events").where("id", "in", ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}
