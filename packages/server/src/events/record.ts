import type { Schema } from "@quire/api-types";
import { sql } from "kysely";
import type { Clock, IdGenerator } from "../context.js";
import { fromJson, timestamp, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { EventTable } from "./tables.js";

export type EventType = Schema<"EventType">;

/** The event of type `T`, as the contract gives it. */
export type EventOf<T extends EventType> = Extract<Schema<"WebhookEvent">, { type: T }>;

/** What an event of type `T` says. */
export type EventData<T extends EventType> = EventOf<T>["data"];

export interface NewEvent<T extends EventType> {
  organizationId: string;
  type: T;
  data: EventData<T>;
  /** The user who made the change; omitted for the server's own. */
  actorId?: string;
  /** The space or site it is about, for webhooks that filter by one. */
  spaceId?: string;
  siteId?: string;
}

/**
 * Records an event. Call it with the transaction that makes the change: the event then exists if and
 * only if the change commits. Its number comes from the organization's counter row, which this
 * statement locks until the transaction ends: a later transaction of the organization waits for it,
 * so numbers follow commit order without gaps, and a reader that has seen number n has seen all
 * before it. Call it late in the transaction: the lock is held from here to the commit.
 */
export async function recordEvent<T extends EventType>(
  tx: Db,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  event: NewEvent<T>,
): Promise<void> {
  const { last_sequence } = await tx
    .insertInto("event_counters")
    .values({ organization_id: event.organizationId, last_sequence: 1 })
    .onConflict((oc) =>
      oc.column("organization_id").doUpdateSet({ last_sequence: sql`event_counters.last_sequence + 1` }),
    )
    .returning("last_sequence")
    .executeTakeFirstOrThrow();
  await tx
    .insertInto("events")
    .values({
      id: ids.next(),
      organization_id: event.organizationId,
      sequence: Number(last_sequence),
      type: event.type,
      space_id: event.spaceId ?? null,
      site_id: event.siteId ?? null,
      actor_id: event.actorId ?? null,
      data: toJson(event.data),
      created_at: timestamp(clock.now()),
    })
    .execute();
}

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
