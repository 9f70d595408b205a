import type { Schema } from "@quire/api-types";
import type { UserTable } from "../db/schema.js";
import type { Urls } from "../urls.js";
import { presentUserIn } from "../users/index.js";
import type { ReviewRow } from "./store.js";
import type { ChangeRequestReviewRequestTable } from "./tables.js";

/** Where a change request's reviews are in the API. */
export const reviewsPath = (spaceId: string, changeRequestId: string) =>
  `spaces/${spaceId}/change-requests/${changeRequestId}/reviews`;

export function presentReview(
  row: ReviewRow,
  spaceId: string,
  users: ReadonlyMap<string, UserTable>,
  urls: Urls,
  comments: ReadonlyMap<string, Schema<"Comment">>,
): Schema<"ChangeRequestReview"> {
  const comment = row.comment_id === null ? undefined : comments.get(row.comment_id);
  return {
    object: "change-request-review",
    id: row.id,
    revision: row.revision_id,
    reviewer: presentUserIn(users, row.reviewer_id, urls),
    ...(row.requested_by !== null && { requestedBy: presentUserIn(users, row.requested_by, urls) }),
    status: row.status,
    outdated: Number(row.outdated) === 1,
    ...(comment && { comment }),
    createdAt: row.created_at,
    updatedAt: row.created_at,
    urls: { location: urls.api(`${reviewsPath(spaceId, row.change_request_id)}/${row.id}`) },
  };
}

export function presentReviewRequest(
  row: ChangeRequestReviewRequestTable,
  users: ReadonlyMap<string, UserTable>,
  urls: Urls,
): Schema<"ChangeRequestRequestedReviewer"> {
  return {
    object: "change-request-requested-reviewer",
    revision: row.revision_id,
    requestedBy: presentUserIn(users, row.requested_by, urls),
    createdAt: row.created_at,
    kind: "user",
    user: presentUserIn(users, row.user_id, urls),
  };
}
