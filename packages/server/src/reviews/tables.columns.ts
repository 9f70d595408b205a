import type { ColumnsOf } from "../db/columns.js";
import type { ReviewsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const reviewsColumns: ColumnsOf<ReviewsTables> = {
  change_request_reviews: {
    id: "not null",
    change_request_id: "not null",
    reviewer_id: "not null",
    requested_by: "null",
    status: "not null",
    revision_id: "not null",
    created_at: "not null",
    comment_id: "null",
  },
  change_request_review_requests: {
    change_request_id: "not null",
    user_id: "not null",
    requested_by: "not null",
    revision_id: "not null",
    created_at: "not null",
  },
};
