import type { Clock, IdGenerator } from "../context.js";
import { timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { numberEvents } from "../events/numbering.js";
import { forgetEvents, recordEvent } from "../events/record.js";
import type { EventTable } from "../events/tables.js";
import { keysetList, type PageQuery, type PageResult } from "../http/paging.js";
import { withRequestOrigin } from "../http/request-context.js";
import { eventsStillToDeliver } from "../webhooks/index.js";

/** What the audit log is filtered by; each one set narrows it. */
export interface AuditFilters {
  type?: string;
  actor?: string;
  target?: string;
  /** ISO 8601 timestamps, both ends included. */
  from?: string;
  to?: string;
}

type Filter = keyof AuditFilters;
type ListArgs = { organizationId: string } & { [F in Filter]?: string };

const COLUMNS = { type: "type", actor: "actor_id", target: "target_id" } as const;

/**
 * The organization's events matching the filters set in `filters`, newest first. One prepared
 * listing per combination of filters, made when first asked for: a filter left out costs no
 * condition, so each combination's statement uses its own index.
 */
function auditListing(filters: readonly Filter[]) {
  return keysetList(
    (db, args: ListArgs) => {
      let query = db
        .selectFrom("events")
        .selectAll()
        .where("organization_id", "=", args.organizationId)
        .where("type", "!=", "ping");
      for (const filter of filters) {
        const value = args[filter] as string;
        if (filter === "from") query = query.where("created_at", ">=", value);
        else if (filter === "to") query = query.where("created_at", "<=", value);
        else query = query.where(COLUMNS[filter], "=", value as never);
      }
      return query;
    },
    { sequence: "number" },
    { descending: true },
  );
}

const listings = new Map<string, ReturnType<typeof auditListing>>();

export async function listAuditEvents(
  db: Db,
  organizationId: string,
  filters: AuditFilters,
  query: PageQuery,
): Promise<PageResult<EventTable>> {
  await numberEvents(db);
  const set = (Object.keys(filters) as Filter[]).filter((f) => filters[f] !== undefined).sort();
  const key = set.join();
  let listing = listings.get(key);
  if (!listing) {
    listing = auditListing(set);
    listings.set(key, listing);
  }
  return listing(db, { organizationId, ...filters }, query);
}

/** One audited event of the organization. */
export async function auditEventOf(
  db: Db,
  organizationId: string,
  id: string,
): Promise<EventTable | undefined> {
  await numberEvents(db);
  return db
    .selectFrom("events")
    .selectAll()
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .where("type", "!=", "ping")
    .executeTakeFirst();
}

/**
 * Records a request whose token authenticated no one: in the audit log of the organization its path
 * names when there is one, else apart (`failed_sign_ins`), by time and address only.
 */
export async function recordFailedSignIn(
  db: Db,
  context: { clock: Clock; ids: IdGenerator },
  failure: { operationId: string; organizationId?: string; address?: string },
): Promise<void> {
  const { organizationId, address } = failure;
  const known =
    organizationId !== undefined &&
    (await db.selectFrom("organizations").select("id").where("id", "=", organizationId).executeTakeFirst());
  if (known) {
    await withRequestOrigin(address === undefined ? {} : { address }, () =>
      db.transaction().execute((tx) =>
        recordEvent(tx, context, {
          organizationId: known.id,
          type: "sign_in_failed",
          data: { operation: failure.operationId },
        }),
      ),
    );
    return;
  }
  await db
    .insertInto("failed_sign_ins")
    .values({ occurred_at: timestamp(context.clock.now()), address: address ?? null })
    .execute();
}

/**
 * Deletes the events recorded before `before` among the next `limit` of them (oldest first, after
 * `after`, the last one the previous batch looked at), and returns the last one looked at: none when
 * no old event is left. An event a webhook may still send (a delivery of it pending, or failed and
 * waiting for the webhook to be turned on again) stays until the webhooks area has done with it:
 * deleting it would take its delivery along.
 */
export async function deleteOldEvents(
  db: Db,
  { before, after, limit }: { before: string; after?: { created_at: string; id: string }; limit: number },
): Promise<{ created_at: string; id: string } | undefined> {
  const old = await db
    .selectFrom("events")
    .select(["id", "created_at"])
    .where("created_at", "<", before)
    .$if(after !== undefined, (query) =>
      query.where((eb) =>
        eb.or([
          eb("created_at", ">", after?.created_at ?? ""),
          eb.and([eb("created_at", "=", after?.created_at ?? ""), eb("id", ">", after?.id ?? "")]),
        ]),
      ),
    )
    .orderBy("created_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  const kept = await eventsStillToDeliver(
    db,
    old.map((row) => row.id),
  );
  await forgetEvents(
    db,
    old.filter((row) => !kept.has(row.id)).map((row) => row.id),
  );
  return old.at(-1);
}

/** Deletes the failed sign-ins of no organization recorded before `before`. */
export async function deleteOldFailedSignIns(db: Db, before: string): Promise<void> {
  await db.deleteFrom("failed_sign_ins").where("occurred_at", "<", before).execute();
}
