import { createHmac, randomBytes } from "node:crypto";
import type { Schema } from "@quire/api-types";
import { sql } from "kysely";
import type { Clock, IdGenerator } from "../context.js";
import { fromJson, timestamp, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { UserTable } from "../db/schema.js";
import { moveCursor } from "../events/cursors.js";
import { eventsAfter } from "../events/read.js";
import type { EventData, EventType } from "../events/record.js";
import type { EventTable } from "../events/tables.js";
import { keysetList } from "../http/paging.js";
import { enqueue, jobType } from "../jobs/queue.js";
import type { Attempt } from "../net/post.js";
import type { Urls } from "../urls.js";
import { presentUser } from "../users/index.js";
import { decryptSecret, encryptSecret } from "./secrets.js";
import type { IntegrationEventTable, IntegrationTable } from "./tables.js";

/**
 * Integration events: the events of the organizations an integration is installed in, as GitBook
 * sends them to integrations (its `Event` payloads), POSTed to the integration's `events_url`. A
 * fan-out reads each organization's events in sequence order from a cursor and makes one record per
 * installation and event the installation may see; a deliver job sends the due records.
 */

export type Payload = Schema<"IntegrationEventPayload">;
type Context = { clock: Clock; ids: IdGenerator };

/** Sends the due integration events. */
export const deliverIntegrationEvents = jobType<Record<string, never>>("integrations.events.deliver");

/* ---- The signing secret of an integration. ---- */

const SIGNING = "signing";

/** A new signing secret: 32 random bytes in hex, as GitBook's `signingSecrets.integration` look. */
export const generateSigningSecret = () => randomBytes(32).toString("hex");

/** The secret as stored: encrypted under the server key, bound to the integration. */
export const sealSigningSecret = (secretKey: string, integrationId: string, secret: string) =>
  encryptSecret(secretKey, integrationId, SIGNING, secret);

export const revealSigningSecret = (secretKey: string, integrationId: string, sealed: string) =>
  decryptSecret(secretKey, integrationId, SIGNING, sealed);

/**
 * GitBook's signature of a request to an integration (`verifyIntegrationSignature` in its
 * integrations' code): the HMAC-SHA256 of the raw body under the integration's signing secret, in
 * lowercase hex, in `X-GitBook-Integration-Signature`.
 */
const SIGNATURE_HEADER = "x-gitbook-integration-signature";
const signBody = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex");

/**
 * The headers of a request to an integration (an event, a request to its public endpoint): who
 * sends it, and the body's signature under the integration's secret (`sealed`, as stored).
 */
export const integrationRequestHeaders = (
  secretKey: string,
  integration: { id: string; sealedSecret: string },
  body: string,
) => ({
  "user-agent": "Quire-Integrations",
  [SIGNATURE_HEADER]: signBody(
    revealSigningSecret(secretKey, integration.id, integration.sealedSecret),
    body,
  ),
});

/* ---- Which installations see an event, and what they are sent. ---- */

/** An installation of an integration with an events URL: what may receive events. */
export interface Receiver {
  installation_id: string;
  integration_id: string;
  integration_name: string;
  status: "active" | "pending" | "paused";
  space_selection: "all" | "selected";
  created_at: string;
}

/** The installations in the organization of integrations that declared an events URL. */
function receiversIn(db: Db, organizationId: string): Promise<Receiver[]> {
  return db
    .selectFrom("integration_installations as i")
    .innerJoin("integrations as g", "g.id", "i.integration_id")
    .select([
      "i.id as installation_id",
      "g.id as integration_id",
      "g.name as integration_name",
      "i.status",
      "i.space_selection",
      "i.created_at",
    ])
    .where("i.organization_id", "=", organizationId)
    .where("g.events_url", "is not", null)
    .orderBy("i.id")
    .execute();
}

/** The integration of this name, when it declares an events URL: an uninstalled one is still told. */
async function receiverOfDeleted(
  db: Db,
  data: EventData<"installation_deleted">,
): Promise<Pick<Receiver, "installation_id" | "integration_id"> | undefined> {
  const row = await db
    .selectFrom("integrations")
    .select("id")
    .where("name", "=", data.integration)
    .where("events_url", "is not", null)
    .executeTakeFirst();
  return row && { installation_id: data.installation, integration_id: row.id };
}

/**
 * Whether an installation covers a space: every space when its selection is `all`. Quire has no
 * operation that selects single spaces, so a selection covers none (as `spaces` counts them). Events
 * from before the installation, and any while it is paused, are not its to see.
 */
const coversSpace = (receiver: Receiver, event: EventTable) =>
  receiver.space_selection === "all" &&
  receiver.status !== "paused" &&
  event.created_at >= receiver.created_at;

type SpaceEventType = Extract<
  EventType,
  "space_content_updated" | "space_visibility_updated" | "space_gitsync_started" | "space_gitsync_completed"
>;
const SPACE_TYPES: ReadonlySet<string> = new Set<SpaceEventType>([
  "space_content_updated",
  "space_visibility_updated",
  "space_gitsync_started",
  "space_gitsync_completed",
]);

/** The payload of a space event for one installation: GitBook's fields from Quire's event data. */
function spacePayload(
  event: EventTable,
  installationId: string,
  updatedBy: Schema<"User">[],
): Payload | undefined {
  const base = { eventId: event.id, installationId };
  switch (event.type) {
    case "space_content_updated": {
      const data = fromJson(event.data) as EventData<"space_content_updated">;
      return { ...base, type: event.type, spaceId: data.space, revisionId: data.revision, updatedBy };
    }
    case "space_visibility_updated": {
      const data = fromJson(event.data) as EventData<"space_visibility_updated">;
      return {
        ...base,
        type: event.type,
        spaceId: data.space,
        previousVisibility: data.previousVisibility,
        visibility: data.visibility,
      };
    }
    case "space_gitsync_started": {
      const data = fromJson(event.data) as EventData<"space_gitsync_started">;
      return {
        ...base,
        type: event.type,
        spaceId: data.space,
        ...(data.revision !== undefined && { revisionId: data.revision }),
        ...(data.commit !== undefined && { commitId: data.commit }),
      };
    }
    case "space_gitsync_completed": {
      const data = fromJson(event.data) as EventData<"space_gitsync_completed">;
      return {
        ...base,
        type: event.type,
        spaceId: data.space,
        // GitBook knows success and failure: a time-out is a failure.
        state: data.state === "success" ? "success" : "failure",
        ...(data.revision !== undefined && { revisionId: data.revision }),
        ...(data.commit !== undefined && { commitId: data.commit }),
      };
    }
    default:
      return undefined;
  }
}

/** A record of `payload` for the receiver, due at once. */
function record(
  context: Context,
  event: EventTable,
  receiver: Pick<Receiver, "installation_id" | "integration_id">,
  payload: Payload,
): IntegrationEventTable {
  const now = timestamp(context.clock.now());
  return {
    id: context.ids.next(),
    integration_id: receiver.integration_id,
    installation_id: receiver.installation_id,
    organization_id: event.organization_id,
    event_id: event.id,
    type: payload.type,
    payload: toJson(payload),
    status: "pending",
    attempts: 0,
    next_attempt_at: now,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    lease_token: null,
    lease_until: null,
    created_at: now,
  };
}

/** The records the events make for the organization's receivers. */
async function recordsOf(
  tx: Db,
  context: Context,
  urls: Urls,
  events: readonly EventTable[],
  receivers: readonly Receiver[],
): Promise<IntegrationEventTable[]> {
  const records: IntegrationEventTable[] = [];
  const actors = [
    ...new Set(
      events.flatMap((e) => (e.type === "space_content_updated" && e.actor_id !== null ? [e.actor_id] : [])),
    ),
  ];
  const users = new Map<string, UserTable>();
  if (actors.length > 0)
    for (const user of await tx.selectFrom("users").selectAll().where("id", "in", actors).execute())
      users.set(user.id, user);
  for (const event of events) {
    if (event.type === "installation_setup") {
      // The integration installed (or configured) alone is told, while the installation exists.
      const data = fromJson(event.data) as EventData<"installation_setup">;
      const receiver = receivers.find((r) => r.installation_id === data.installation);
      if (receiver)
        records.push(
          record(context, event, receiver, {
            eventId: event.id,
            type: "installation_setup",
            installationId: receiver.installation_id,
            status: receiver.status,
          }),
        );
    } else if (event.type === "installation_deleted") {
      const data = fromJson(event.data) as EventData<"installation_deleted">;
      const receiver = await receiverOfDeleted(tx, data);
      // The configuration went with the installation: `previous` says no more than GitBook requires.
      if (receiver)
        records.push(
          record(context, event, receiver, {
            eventId: event.id,
            type: "installation_deleted",
            installationId: receiver.installation_id,
            previous: {},
          }),
        );
    } else if (SPACE_TYPES.has(event.type)) {
      const actor = event.actor_id === null ? undefined : users.get(event.actor_id);
      const updatedBy = actor ? [presentUser(actor, urls)] : [];
      for (const receiver of receivers) {
        if (!coversSpace(receiver, event)) continue;
        const payload = spacePayload(event, receiver.installation_id, updatedBy);
        if (payload) records.push(record(context, event, receiver, payload));
      }
    }
  }
  return records;
}

/* ---- The fan-out. ---- */

/**
 * Matches up to `limit` new events of organizations, in (organization, sequence) order, to the
 * installations that may see them: a pending record for each, the organization's cursor moved past
 * them. An organization without a receiver has only its cursor moved (after a look for an
 * `installation_deleted` an uninstalled integration is still sent). Returns how many records it made.
 */
export async function fanOutIntegrationEvents(
  tx: Db,
  context: Context,
  urls: Urls,
  limit: number,
): Promise<number> {
  const organizations = await tx
    .selectFrom("event_counters as ec")
    .leftJoin("event_cursors as c", (join) =>
      join.onRef("c.organization_id", "=", "ec.organization_id").on("c.consumer", "=", "integrations"),
    )
    .select(["ec.organization_id", "ec.last_sequence as last", "c.last_sequence as cursor"])
    .where(sql<boolean>`ec.last_sequence > coalesce(c.last_sequence, 0)`)
    .orderBy("ec.organization_id")
    .limit(limit)
    .execute();

  let read = 0;
  let made = 0;
  for (const organization of organizations) {
    if (read >= limit) break;
    const organizationId = organization.organization_id;
    const cursor = organization.cursor === null ? null : Number(organization.cursor);
    const start = cursor ?? 0;
    const receivers = await receiversIn(tx, organizationId);
    if (receivers.length === 0 && !(await deletionAfter(tx, organizationId, start))) {
      await moveCursor(tx, "integrations", organizationId, { from: cursor, to: Number(organization.last) });
      continue;
    }
    const events = await eventsAfter(tx, organizationId, start, limit - read);
    read += events.length;
    const records = await recordsOf(tx, context, urls, events, receivers);
    if (records.length > 0) {
      await tx.insertInto("integration_events").values(records).execute();
      made += records.length;
    }
    await moveCursor(tx, "integrations", organizationId, {
      from: cursor,
      to: events.at(-1)?.sequence ?? start,
    });
  }
  if (made > 0) await enqueue(tx, context, deliverIntegrationEvents, {});
  return made;
}

/** Whether an integration was uninstalled from the organization after `afterSequence`. */
async function deletionAfter(tx: Db, organizationId: string, afterSequence: number): Promise<boolean> {
  const row = await tx
    .selectFrom("events")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("sequence", ">", afterSequence)
    .where("type", "=", "installation_deleted")
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/* ---- Sending. ---- */

/** A record claimed for sending, with where it goes. */
export type Claimed = IntegrationEventTable & Pick<IntegrationTable, "events_url" | "signing_secret">;

/**
 * Takes up to `limit` due records for this runner until `until`, oldest first. The conditions are
 * on the updated rows themselves, so that on PostgreSQL a runner that waited for another's lock
 * checks them again and skips what the other took.
 */
export async function claimDue(
  db: Db,
  { token, now, until, limit }: { token: string; now: string; until: string; limit: number },
): Promise<Claimed[]> {
  const due = db
    .selectFrom("integration_events")
    .select("id")
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", now)
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]))
    .orderBy("next_attempt_at")
    .orderBy("id")
    .limit(limit);
  const claimed = await db
    .updateTable("integration_events")
    .set({ lease_token: token, lease_until: until })
    .where("id", "in", due)
    .where("status", "=", "pending")
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]))
    .returningAll()
    .execute();
  if (claimed.length === 0) return [];
  const integrations = await db
    .selectFrom("integrations")
    .select(["id", "events_url", "signing_secret"])
    .where("id", "in", [...new Set(claimed.map((row) => row.integration_id))])
    .execute();
  const byId = new Map(integrations.map((row) => [row.id, row]));
  return claimed.map((row) => ({
    ...row,
    events_url: byId.get(row.integration_id)?.events_url ?? null,
    signing_secret: byId.get(row.integration_id)?.signing_secret ?? null,
  }));
}

/** How long after failed attempt n (1 for the first) the next is due; GitBook retries three times. */
const RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000];

/** The record's columns after `attempt`: success, a retry later, or given up after the last. */
export function afterAttempt(
  row: Pick<IntegrationEventTable, "attempts">,
  attempt: Attempt,
  now: Date,
): Partial<IntegrationEventTable> {
  const attempts = row.attempts + 1;
  const columns = {
    attempts,
    last_attempt_at: attempt.at,
    last_status_code: attempt.statusCode ?? null,
    last_error: attempt.error ?? null,
    lease_token: null,
    lease_until: null,
  };
  if (attempt.ok) return { ...columns, status: "success", next_attempt_at: null };
  const delay = RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return { ...columns, status: "failed", next_attempt_at: null };
  return { ...columns, status: "pending", next_attempt_at: timestamp(new Date(now.getTime() + delay)) };
}

/** Records how an attempt went, if this runner still holds the record. */
export async function recordAttempt(
  db: Db,
  id: string,
  token: string,
  columns: Partial<IntegrationEventTable>,
): Promise<void> {
  await db
    .updateTable("integration_events")
    .set(columns)
    .where("id", "=", id)
    .where("lease_token", "=", token)
    .execute();
}

/** Whether a record is due that no runner holds: a retry that came due. */
export async function anyDue(db: Db, now: string): Promise<boolean> {
  const row = await db
    .selectFrom("integration_events")
    .select("id")
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", now)
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes records made before `before` that are no longer pending, at most `limit`; how many. */
export async function deleteOldIntegrationEvents(db: Db, before: string, limit: number): Promise<number> {
  const old = db
    .selectFrom("integration_events")
    .select("id")
    .where("created_at", "<", before)
    .where("status", "!=", "pending")
    .limit(limit);
  const result = await db.deleteFrom("integration_events").where("id", "in", old).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/* ---- Reading, for `listIntegrationEvents` and `getIntegrationEvent`. ---- */

/** A record as GitBook's `IntegrationEvent`: failed while its last attempt failed. */
export function presentIntegrationEvent(row: IntegrationEventTable): Schema<"IntegrationEvent"> {
  return {
    id: row.id,
    integrationId: row.integration_id,
    installationId: row.installation_id,
    createdAt: row.created_at,
    payload: fromJson(row.payload),
    status: row.status === "success" ? "success" : "failed",
  };
}

/** Its trace: why its last attempt failed, when it did. */
export function traceOf(row: IntegrationEventTable): Schema<"IntegrationEventTrace"> | undefined {
  if (row.last_error === null || row.last_attempt_at === null) return undefined;
  const retry =
    row.status === "pending" && row.next_attempt_at !== null
      ? ` Next attempt at ${row.next_attempt_at}.`
      : "";
  return {
    logs: [
      {
        level: "error",
        timestamp: row.last_attempt_at,
        message: `Attempt ${row.attempts} failed: ${row.last_error}${retry}`,
      },
    ],
  };
}

/** The records of an integration that were attempted, newest first. */
export const listIntegrationEvents = keysetList(
  (db, args: { integrationId: string }) =>
    db
      .selectFrom("integration_events")
      .selectAll()
      .where("integration_id", "=", args.integrationId)
      .where("attempts", ">", 0),
  { created_at: "string", id: "string" },
  { descending: true },
);

export function integrationEventOf(
  db: Db,
  integrationId: string,
  id: string,
): Promise<IntegrationEventTable | undefined> {
  return db
    .selectFrom("integration_events")
    .selectAll()
    .where("id", "=", id)
    .where("integration_id", "=", integrationId)
    .where("attempts", ">", 0)
    .executeTakeFirst();
}
