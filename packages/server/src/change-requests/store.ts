import { SqliteAdapter, sql } from "kysely";
import { callerGrant, grantAware, listsContent } from "../access.js";
import type { Clock, IdGenerator } from "../context.js";
import { timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { preparedRead } from "../db/prepared.js";
import type { SpaceTable } from "../db/schema.js";
import { recordEvent } from "../events/record.js";
import { notFound } from "../http/errors.js";
import { keysetList } from "../http/paging.js";
import { reviewRequested } from "../reviews/index.js";
import { spacesPublishedBy } from "../sites/index.js";
import { adjustSpaceActivity, changeRequestStatusActivity } from "../spaces/index.js";
import { changeRequestEventData } from "./events.js";
import type { ChangeRequestTable } from "./tables.js";

/** A change request with what its presentation needs: its author and its open comments. */
export type ChangeRequestRow = Awaited<ReturnType<typeof byId>>[number];

/** `updated_at` with each digit d as 9 − d: sorting it ascending lists the newest first. */
export function recencyOf(updatedAt: string): string {
  return updatedAt.replace(/[0-9]/g, (digit) => String(9 - Number(digit)));
}

function selectChangeRequests(db: Db) {
  return db
    .selectFrom("change_requests")
    .selectAll("change_requests")
    .select((eb) => {
      const creator = eb.selectFrom("users").whereRef("users.id", "=", "change_requests.created_by");
      return [
        creator.select("users.display_name").as("creator_display_name"),
        creator.select("users.email").as("creator_email"),
        creator.select("users.photo_url").as("creator_photo_url"),
        creator.select("users.created_at").as("creator_created_at"),
        eb
          .selectFrom("comments")
          .select(eb.fn.countAll<number | string>().as("n"))
          .whereRef("comments.change_request_id", "=", "change_requests.id")
          .where("comments.status", "=", "open")
          .as("open_comments"),
      ];
    })
    .$narrowType<{
      creator_display_name: string;
      creator_email: string;
      creator_created_at: string;
      open_comments: number | string;
    }>();
}

const byNumber = preparedRead((db, args: { spaceId: string; number: number }) =>
  selectChangeRequests(db).where("space_id", "=", args.spaceId).where("number", "=", args.number),
);

const byId = preparedRead((db, args: { spaceId: string; id: string }) =>
  selectChangeRequests(db).where("space_id", "=", args.spaceId).where("id", "=", args.id),
);

/** A number is at most what the contract's int32 holds; anything else is an id. */
const NUMBER = /^[1-9][0-9]{0,9}$/;
const INT32_MAX = 2 ** 31 - 1;

/** The change request of the space by its id or its number; 404 when the space has none such. */
export async function changeRequestOf(
  db: Db,
  spaceId: string,
  idOrNumber: string,
): Promise<ChangeRequestRow> {
  let found: ChangeRequestRow[];
  if (NUMBER.test(idOrNumber)) {
    const number = Number(idOrNumber);
    found = number <= INT32_MAX ? await byNumber(db, { spaceId, number }) : [];
  } else {
    found = await byId(db, { spaceId, id: idOrNumber });
  }
  const row = found[0];
  if (!row) throw notFound("Change request");
  return row;
}

/** The revision the change request started from: where it was created, or last updated from main. */
export const baseRevisionOf = (changeRequest: ChangeRequestTable) =>
  changeRequest.revision_merged_ancestor_id ?? changeRequest.revision_initial_id;

/** The change requests of the space that `revisionIds` merged (one statement; none for no ids). */
export async function changeRequestsMergedAs(db: Db, spaceId: string, revisionIds: readonly string[]) {
  if (revisionIds.length === 0) return [];
  return db
    .selectFrom("change_requests")
    .select(["id", "number", "subject", "revision_merged_id"])
    .where("space_id", "=", spaceId)
    .where("revision_merged_id", "in", revisionIds)
    .execute();
}

/** The change request whose merge made `revisionId` of the space's main content, if one did. */
export function changeRequestMergedAs(
  db: Db,
  spaceId: string,
  revisionId: string,
): Promise<ChangeRequestRow | undefined> {
  return selectChangeRequests(db)
    .where("change_requests.space_id", "=", spaceId)
    .where("change_requests.revision_merged_id", "=", revisionId)
    .executeTakeFirst();
}

/** SQL: whether the optional `value` is unset, typed for PostgreSQL (which cannot tell a bare parameter's). */
const unset = (value: string | null) => sql<boolean>`cast(${value} as text) is null`;

/** The filters of a list of change requests; each null filter takes all. */
export type ChangeRequestFilter = {
  /** 1 for each status listed, 0 otherwise. */
  draft: number;
  open: number;
  archived: number;
  merged: number;
  creator: string | null;
  contributor: string | null;
  requestedReviewer: string | null;
  /** Only those of the spaces this site publishes. */
  site: string | null;
};

/** The filters of an organization's list of change requests. */
export type OrganizationChangeRequestFilter = ChangeRequestFilter & {
  organizationId: string;
  /** The caller, whose readable spaces are listed. */
  userId: string;
  space: string | null;
};

/** The filters of a space's list of change requests. */
export type SpaceChangeRequestFilter = ChangeRequestFilter & { spaceId: string };

/** The change requests `filter` selects, with what their presentation needs; arguments may be placeholders. */
function filteredChangeRequests(db: Db, filter: ChangeRequestFilter) {
  return selectChangeRequests(db)
    .where((eb) =>
      eb.or([
        eb.and([eb("change_requests.status", "=", "draft"), eb(sql.val(filter.draft), "=", 1)]),
        eb.and([eb("change_requests.status", "=", "open"), eb(sql.val(filter.open), "=", 1)]),
        eb.and([eb("change_requests.status", "=", "archived"), eb(sql.val(filter.archived), "=", 1)]),
        eb.and([eb("change_requests.status", "=", "merged"), eb(sql.val(filter.merged), "=", 1)]),
      ]),
    )
    .where((eb) =>
      eb.or([unset(filter.creator), eb("change_requests.created_by", "=", filter.creator as string)]),
    )
    .where((eb) =>
      eb.or([
        unset(filter.contributor),
        eb.exists(
          eb
            .selectFrom("change_request_contributors as c")
            .select("c.user_id")
            .whereRef("c.change_request_id", "=", "change_requests.id")
            .where("c.user_id", "=", filter.contributor as string),
        ),
      ]),
    )
    .where((eb) =>
      eb.or([
        unset(filter.requestedReviewer),
        reviewRequested(sql.ref("change_requests.id"), filter.requestedReviewer as string),
      ]),
    )
    .where((eb) =>
      eb.or([
        unset(filter.site),
        eb("change_requests.space_id", "in", spacesPublishedBy(filter.site as string)),
      ]),
    );
}

/**
 * The change requests of the organization's spaces that `userId` reads (members all of them, guests
 * those granted), not deleted, as `filter` narrows them, with `space_revision` (the main content's
 * revision, which tells whether each is outdated).
 */
const organizationChangeRequests = grantAware(
  (withGrants) => (db: Db, filter: OrganizationChangeRequestFilter) => {
    const grant = callerGrant(withGrants, filter.userId, sql.ref("sp.id"), sql.ref("sp.parent_id"));
    return (
      filteredChangeRequests(db, filter)
        .select((eb) =>
          eb
            .selectFrom("spaces as main")
            .select("main.revision_id")
            .whereRef("main.id", "=", "change_requests.space_id")
            .as("space_revision"),
        )
        // Its space is one of the rows the filter below selects.
        .$narrowType<{ space_revision: string }>()
        .where("change_requests.space_id", "in", (eb) =>
          eb
            .selectFrom("spaces as sp")
            .select("sp.id")
            .where("sp.organization_id", "=", filter.organizationId)
            .where("sp.deleted_at", "is", null)
            .where(listsContent(filter.userId, filter.organizationId, grant)),
        )
        .where((eb) =>
          eb.or([unset(filter.space), eb("change_requests.space_id", "=", filter.space as string)]),
        )
    );
  },
);

/** A page of an organization's change requests (see `organizationChangeRequests`), most recently changed first. */
export const listOrganizationChangeRequestsByUpdate = keysetList(
  (db, filter: OrganizationChangeRequestFilter) => organizationChangeRequests(db, filter),
  { recency: "string", id: "string" },
);

/** The same, most recently created first (ids are time-ordered). */
export const listOrganizationChangeRequestsByCreation = keysetList(
  (db, filter: OrganizationChangeRequestFilter) => organizationChangeRequests(db, filter),
  { id: "string" },
  { descending: true },
);

const spaceChangeRequests = (db: Db, filter: SpaceChangeRequestFilter) =>
  filteredChangeRequests(db, filter).where("change_requests.space_id", "=", filter.spaceId);

/** A page of a space's change requests as `filter` narrows them, most recently changed first. */
export const listSpaceChangeRequestsByUpdate = keysetList(spaceChangeRequests, {
  recency: "string",
  id: "string",
});

/** The same, most recently created first (ids are time-ordered). */
export const listSpaceChangeRequestsByCreation = keysetList(
  spaceChangeRequests,
  { id: "string" },
  { descending: true },
);

/**
 * The space, locked until the transaction ends: every write to a space's change requests or content
 * takes it first, so that numbers are taken one at a time and a merge sees the main content it
 * replaces. PostgreSQL locks the row; SQLite runs one write transaction at a time anyway.
 */
export async function lockSpace(tx: Db, spaceId: string): Promise<SpaceTable> {
  let query = tx.selectFrom("spaces").selectAll().where("id", "=", spaceId);
  if (!(tx.getExecutor().adapter instanceof SqliteAdapter)) query = query.forUpdate();
  const space = await query.executeTakeFirst();
  if (!space) throw notFound("Space");
  return space;
}

/**
 * Creates a draft change request on the space's current content (or on revision `from` of it, which
 * its merge is then made from), with the next number. After `lockSpace`.
 */
export async function insertChangeRequest(
  tx: Db,
  { clock, ids }: { clock: Clock; ids: IdGenerator },
  fields: { space: SpaceTable; subject: string; userId: string; from?: string },
): Promise<ChangeRequestRow> {
  const { highest } = await tx
    .selectFrom("change_requests")
    .select((eb) => eb.fn.max("number").as("highest"))
    .where("space_id", "=", fields.space.id)
    .executeTakeFirstOrThrow();
  const now = timestamp(clock.now());
  const id = ids.next();
  await tx
    .insertInto("change_requests")
    .values({
      id,
      space_id: fields.space.id,
      number: Number(highest ?? 0) + 1,
      status: "draft",
      subject: fields.subject,
      created_by: fields.userId,
      created_at: now,
      updated_at: now,
      recency: recencyOf(now),
      revision_id: fields.from ?? fields.space.revision_id,
      revision_initial_id: fields.from ?? fields.space.revision_id,
      revision_merged_ancestor_id: null,
      revision_merged_id: null,
    })
    .execute();
  await addContributor(tx, id, fields.userId, now);
  await adjustSpaceActivity(tx, fields.space.id, changeRequestStatusActivity(null, "draft"));
  const created = await changeRequestOf(tx, fields.space.id, id);
  await recordEvent(
    tx,
    { clock, ids },
    {
      organizationId: fields.space.organization_id,
      type: "change_request_created",
      actorId: fields.userId,
      spaceId: fields.space.id,
      data: changeRequestEventData(created),
    },
  );
  return created;
}

/** Counts a change of the change request (its creation, an edit) by `userId` at `now`. */
export async function addContributor(
  tx: Db,
  changeRequestId: string,
  userId: string,
  now: string,
): Promise<void> {
  await tx
    .insertInto("change_request_contributors")
    .values({ change_request_id: changeRequestId, user_id: userId, changes: 1, changed_at: now })
    .onConflict((oc) =>
      oc.columns(["change_request_id", "user_id"]).doUpdateSet((eb) => ({
        changes: sql`${eb.ref("change_request_contributors.changes")} + 1`,
        changed_at: eb.ref("excluded.changed_at"),
      })),
    )
    .execute();
}

/** Who changed the change request (see `addContributor`), with how often and when last. */
export function contributorsOf(db: Db, changeRequestId: string) {
  return db
    .selectFrom("change_request_contributors")
    .select(["user_id", "changes", "changed_at"])
    .where("change_request_id", "=", changeRequestId)
    .execute();
}

/**
 * Applies `changes` to a change request and moves its `updated_at`; a status change moves the
 * space's counters in the same transaction. Returns the row as it is now.
 */
export async function updateChangeRequest(
  tx: Db,
  current: ChangeRequestTable,
  changes: Partial<
    Pick<
      ChangeRequestTable,
      | "subject"
      | "status"
      | "description"
      | "links"
      | "revision_id"
      | "revision_merged_ancestor_id"
      | "revision_merged_id"
    >
  >,
  now: string,
): Promise<ChangeRequestRow> {
  await tx
    .updateTable("change_requests")
    .set({ ...changes, updated_at: now, recency: recencyOf(now) })
    .where("id", "=", current.id)
    .execute();
  if (changes.status !== undefined && changes.status !== current.status)
    await adjustSpaceActivity(
      tx,
      current.space_id,
      changeRequestStatusActivity(current.status, changes.status),
    );
  return changeRequestOf(tx, current.space_id, current.id);
}
