import { AsyncLocalStorage } from "node:async_hooks";
import type { Schema } from "@quire/api-types";
import { type RawBuilder, SqliteAdapter, sql } from "kysely";
import type { Clock, IdGenerator } from "../context.js";
import { fromJson, timestamp, toJson } from "../db/codecs.js";
import { runWithCommit } from "../db/commit-pipeline.js";
import type { Db } from "../db/database.js";
import { compiledWrite, preparedWrite } from "../db/prepared.js";
import { requestOrigin } from "../http/request-context.js";
import type { EventTable } from "./tables.js";
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
 * recording side). Nothing else calls it: an event is part of every change that commits.
 */
export const withoutEvents = <T>(work: () => T): T => eventsOff.run(true, work);

/**
 * Records an event. Call it with the transaction that makes the change: the event then exists if and
 * only if the change commits. Within a request, the request's token and client address go with it
 * (the audit log shows them); the job runner's work has none. Its number comes from the organization's
 * counter row, which its insert locks until the transaction ends: a later transaction of the
 * organization waits for it, so numbers follow commit order without gaps, and a reader that has seen
 * number n has seen all before it. On PostgreSQL the insert is sent with the COMMIT
 * (`runWithCommit`), so the lock is held only while PostgreSQL commits, and the event cannot be read
 * back before the transaction ends. On SQLite, with one writer at a time, it is inserted at once.
 */
export async function recordEvent<T extends EventType>(
  tx: Db,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  event: NewEvent<T>,
): Promise<void> {
  if (eventsOff.getStore()) return;
  const origin = requestOrigin();
  const row: EventArguments = {
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
  };
  if (tx.getExecutor().adapter instanceof SqliteAdapter) await insertNumberedEvent(tx, row);
  else await runWithCommit(tx, "quire_record_event", numberAndInsertEvent(tx, row));
}

/** An event's columns but its number, as `recordEvent` binds them. */
type EventArguments = Omit<EventTable, "sequence">;

const EVENT_COLUMNS = sql.raw(
  "id, organization_id, sequence, type, space_id, site_id, actor_id, actor_token_id, actor_address, target_id, data, created_at",
);

/**
 * SQLite: the event numbered after its organization's counter, which a trigger then moves on to it
 * (migration 202611272000_event_counter_trigger): one statement.
 */
const insertNumberedEvent = preparedWrite((db, e: EventArguments) =>
  compiled(
    db,
    sql`insert into events (${EVENT_COLUMNS}) values (${e.id}, ${e.organization_id},
      coalesce((select last_sequence from event_counters where organization_id = ${e.organization_id}), 0) + 1,
      ${e.type}, ${e.space_id}, ${e.site_id}, ${e.actor_id}, ${e.actor_token_id}, ${e.actor_address},
      ${e.target_id}, ${e.data}, ${e.created_at})`,
  ),
);

/**
 * PostgreSQL: both in one statement, sent with the commit (`runWithCommit`): the counter row is
 * locked from there to the commit's end only.
 */
const numberAndInsertEvent = compiledWrite((db, e: EventArguments) =>
  compiled(
    db,
    sql`with counter as (
        insert into event_counters (organization_id, last_sequence) values (${e.organization_id}, 1)
        on conflict (organization_id) do update set last_sequence = event_counters.last_sequence + 1
        returning last_sequence
      )
      insert into events (${EVENT_COLUMNS})
      select ${e.id}, ${e.organization_id}, last_sequence, ${e.type}, ${e.space_id}, ${e.site_id},
        ${e.actor_id}, ${e.actor_token_id}, ${e.actor_address}, ${e.target_id}, ${e.data}, ${e.created_at}
      from counter`,
  ),
);

/** A raw statement as `preparedWrite` and `compiledWrite` compile it, for `db`'s dialect. */
const compiled = <Row>(db: Db, statement: RawBuilder<Row>) => ({ compile: () => statement.compile(db) });

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
