import type { AccessMap, AreaHandlers } from "../area.js";
import {
  type ChangeRequestRow,
  canEditChangeRequests,
  type MemberChangeRequest,
  onChangeRequest,
} from "../change-requests/index.js";
import { requestReviewers } from "../commands/request-reviewers.js";
import { submitReview } from "../commands/submit-review.js";
import { commentParentOf, presentedComments } from "../comments/index.js";
import { ApiError, badRequest, conflict, forbidden } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import type { Services } from "../services.js";
import { spaceForCaller } from "../spaces/index.js";
import { usersByIds } from "../users/index.js";
import { canReview } from "./policy.js";
import { presentReview, presentReviewRequest } from "./presenter.js";
import { deleteReviewRequest, listReviewRequests, listReviews, type ReviewRow, reviewOf } from "./store.js";

const reads = onChangeRequest("read its reviews");
const asks = onChangeRequest("ask for reviews of change requests in this space", ({ role }) =>
  canEditChangeRequests(role),
);

export const reviewAccess = {
  getReviewsByChangeRequestId: reads,
  submitChangeRequestReview: onChangeRequest("review change requests in this space", ({ role }) =>
    canReview(role),
  ),
  getChangeRequestReviewById: reads,
  getRequestedReviewersByChangeRequestId: reads,
  requestReviewersForChangeRequest: asks,
  removeRequestedReviewerFromChangeRequest: asks,
} satisfies AccessMap;

/** 409 for a merged or archived change request: it is past review. */
function assertOpenForReview(changeRequest: ChangeRequestRow): void {
  if (changeRequest.status === "merged" || changeRequest.status === "archived")
    throw conflict(
      `The change request is ${changeRequest.status}; it is past review.`,
      "change_request_closed",
    );
}

/** The users a review names: its reviewer, and who asked for it. */
const usersNamedBy = (review: { reviewer_id: string; requested_by: string | null }) =>
  review.requested_by === null ? [review.reviewer_id] : [review.reviewer_id, review.requested_by];

export function reviewHandlers(services: Services): AreaHandlers<typeof reviewAccess> {
  const { db, urls, transaction, clock } = services;
  const target = ({ changeRequest }: MemberChangeRequest) => ({
    changeRequestId: changeRequest.id,
    currentRevision: changeRequest.revision_id,
  });
  /** How these reviews of the member's change request show, with their users and comments. */
  const reviewPresenter = async (member: MemberChangeRequest, rows: readonly ReviewRow[]) => {
    const users = await usersByIds(db, rows.flatMap(usersNamedBy));
    const commentIds = rows.flatMap((row) => (row.comment_id === null ? [] : [row.comment_id]));
    const { parent } = commentParentOf(member);
    const comments = await presentedComments(db, urls, parent, commentIds);
    return (row: ReviewRow) => presentReview(row, member.space.id, users, urls, comments);
  };
  return {
    async getReviewsByChangeRequestId({ query }, member) {
      const outdated = query.outdated === undefined ? null : Number(query.outdated);
      const page = await listReviews(db, { ...target(member), outdated }, query);
      return ok(presentPage(page, await reviewPresenter(member, page.rows)));
    },

    async submitChangeRequestReview({ body, caller }, member) {
      assertOpenForReview(member.changeRequest);
      if (member.changeRequest.created_by === caller.user.id)
        throw forbidden("You cannot review your own change request.");
      const review = { ...(await submitReview(services, member, caller.user.id, body)), outdated: 0 };
      return created((await reviewPresenter(member, [review]))(review));
    },

    async getChangeRequestReviewById({ path }, member) {
      const review = await reviewOf(db, { ...target(member), reviewId: path.reviewId });
      return ok((await reviewPresenter(member, [review]))(review));
    },

    async getRequestedReviewersByChangeRequestId({ query }, member) {
      const page = await listReviewRequests(db, { changeRequestId: member.changeRequest.id }, query);
      const users = await usersByIds(
        db,
        page.rows.flatMap((row) => [row.user_id, row.requested_by]),
      );
      return ok(presentPage(page, (row) => presentReviewRequest(row, users, urls)));
    },

    async requestReviewersForChangeRequest({ body, caller }, member) {
      const { changeRequest, space } = member;
      assertOpenForReview(changeRequest);
      const userIds = [...new Set(body.users)];
      for (const userId of userIds) {
        if (userId === changeRequest.created_by)
          throw badRequest(`users: ${userId} wrote the change request and cannot review it.`);
        const role = await spaceForCaller(db, space.id, userId, clock.now()).then(
          (standing) => standing.role,
          (error: unknown) => {
            if (error instanceof ApiError && error.status === 404) return undefined;
            throw error;
          },
        );
        if (role === undefined || !canReview(role))
          throw badRequest(`users: ${userId} is not a member who may review this space.`);
      }
      const { subject, description } = body;
      const requests = await requestReviewers(services, member, caller.user.id, userIds, {
        subject,
        description,
      });
      const users = await usersByIds(db, [...userIds, caller.user.id]);
      return ok({ users: requests.map((row) => presentReviewRequest(row, users, urls)) });
    },

    async removeRequestedReviewerFromChangeRequest({ path }, { changeRequest }) {
      await transaction((tx) => deleteReviewRequest(tx, changeRequest.id, path.userId));
      return noContent();
    },
  };
}
