/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Timestamps are ISO
 * 8601 text, as everywhere. Both go with their change request, by cascade.
 */
export interface ReviewsTables {
  change_request_reviews: ChangeRequestReviewTable;
  change_request_review_requests: ChangeRequestReviewRequestTable;
}

export type ReviewStatus = "approved" | "changes-requested";

/** A review, made against the change request's revision of the time; never changed afterwards. */
export interface ChangeRequestReviewTable {
  /** Time-ordered: a reviewer's latest review has the largest id. */
  id: string;
  change_request_id: string;
  reviewer_id: string;
  /** Who had asked for it (null: nobody). */
  requested_by: string | null;
  status: ReviewStatus;
  revision_id: string;
  created_at: string;
  /** The thread of the change request posted with the review (null: none). */
  comment_id: string | null;
}

/** A user asked for a review who has not reviewed since; asking again renews the row. */
export interface ChangeRequestReviewRequestTable {
  change_request_id: string;
  user_id: string;
  requested_by: string;
  revision_id: string;
  created_at: string;
}

declare module "../db/schema.js" {
  interface Database extends ReviewsTables {}
}
