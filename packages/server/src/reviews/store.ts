import { type Expression, type SqlBool, sql } from "kysely";
import type { Db } from "../db/database.js";
import { notFound } from "../http/errors.js";
import { keysetList } from "../http/paging.js";
import type { ChangeRequestReviewRequestTable, ChangeRequestReviewTable, ReviewStatus } from "./tables.js";

/**
 * SQL: 1 when review `r` no longer stands, else 0: the change request's revision moved since it
 * (`currentRevision`), or its reviewer reviewed again.
 */
const outdated = (currentRevision: unknown) =>
  sql<number>`case when r.revision_id <> ${currentRevision} or r.id <> (
      select max(l.id) from change_request_reviews l
      where l.change_request_id = r.change_request_id and l.reviewer_id = r.reviewer_id)
    then 1 else 0 end`;

export type ReviewRow = ChangeRequestReviewTable & { outdated: number | string };

const reviews = (db: Db, args: { changeRequestId: string; currentRevision: string }) =>
  db
    .selectFrom("change_request_reviews as r")
    .selectAll("r")
    .select(outdated(args.currentRevision).as("outdated"))
    .where("r.change_request_id", "=", args.changeRequestId);

/**
 * A page of a change request's reviews, newest first; with `outdated` 1 or 0, only those that are
 * outdated or that stand (null: all).
 */
export const listReviews = keysetList(
  (db, args: { changeRequestId: string; currentRevision: string; outdated: number | null }) =>
    reviews(db, args).where(
      sql<boolean>`(cast(${args.outdated} as integer) is null or ${outdated(args.currentRevision)} = cast(${args.outdated} as integer))`,
    ),
  { id: "string" },
  { descending: true },
);

export async function reviewOf(
  db: Db,
  args: { changeRequestId: string; currentRevision: string; reviewId: string },
): Promise<ReviewRow> {
  const row = await reviews(db, args).where("r.id", "=", args.reviewId).executeTakeFirst();
  if (!row) throw notFound("Review");
  return row;
}

/**
 * Records a review of the change request at `revisionId`; the reviewer's request for a review, if
 * any, is answered by it (removed, its asker kept on the review).
 */
export async function insertReview(
  tx: Db,
  review: Omit<ChangeRequestReviewTable, "requested_by">,
): Promise<ChangeRequestReviewTable> {
  const request = await tx
    .deleteFrom("change_request_review_requests")
    .where("change_request_id", "=", review.change_request_id)
    .where("user_id", "=", review.reviewer_id)
    .returning("requested_by")
    .executeTakeFirst();
  const row = { ...review, requested_by: request?.requested_by ?? null };
  await tx.insertInto("change_request_reviews").values(row).execute();
  return row;
}

/** Each reviewer's latest review of the change request (what merge rules count), by reviewer. */
export async function latestReviews(
  db: Db,
  changeRequestId: string,
): Promise<Map<string, { status: ReviewStatus; revision_id: string }>> {
  const rows = await db
    .selectFrom("change_request_reviews as r")
    .select(["r.reviewer_id", "r.status", "r.revision_id"])
    .where("r.change_request_id", "=", changeRequestId)
    .where(
      "r.id",
      "=",
      sql<string>`(select max(l.id) from change_request_reviews l
        where l.change_request_id = r.change_request_id and l.reviewer_id = r.reviewer_id)`,
    )
    .execute();
  return new Map(rows.map((row) => [row.reviewer_id, row]));
}

/** SQL: whether `userId` is asked to review change request `changeRequestId` (and has not reviewed since). */
export const reviewRequested = (changeRequestId: Expression<string>, userId: string) =>
  sql<SqlBool>`exists (select 1 from change_request_review_requests q
    where q.change_request_id = ${changeRequestId} and q.user_id = ${userId})`;

/** A page of the users asked to review the change request, oldest request first. */
export const listReviewRequests = keysetList(
  (db, args: { changeRequestId: string }) =>
    db
      .selectFrom("change_request_review_requests")
      .selectAll()
      .where("change_request_id", "=", args.changeRequestId),
  { created_at: "string", user_id: "string" },
);

/** Asks each user of `requests` for a review; asking again renews the request (asker, revision, time). */
export async function upsertReviewRequests(
  tx: Db,
  requests: readonly ChangeRequestReviewRequestTable[],
): Promise<void> {
  if (requests.length === 0) return;
  await tx
    .insertInto("change_request_review_requests")
    .values([...requests])
    .onConflict((oc) =>
      oc.columns(["change_request_id", "user_id"]).doUpdateSet((eb) => ({
        requested_by: eb.ref("excluded.requested_by"),
        revision_id: eb.ref("excluded.revision_id"),
        created_at: eb.ref("excluded.created_at"),
      })),
    )
    .execute();
}

/** Withdraws the request for `userId`'s review; 404 when there is none. */
export async function deleteReviewRequest(tx: Db, changeRequestId: string, userId: string): Promise<void> {
  const { numDeletedRows } = await tx
    .deleteFrom("change_request_review_requests")
    .where("change_request_id", "=", changeRequestId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (numDeletedRows === 0n) throw notFound("Requested reviewer");
}
