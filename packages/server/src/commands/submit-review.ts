import type { Schema } from "@quire/api-types";
import type { MemberChangeRequest } from "../change-requests/index.js";
import { commentParentOf, documentMarkdown, postComment } from "../comments/index.js";
import { badRequest } from "../http/errors.js";
import { type ChangeRequestReviewTable, insertReview } from "../reviews/index.js";
import type { Services } from "../services.js";
import { assertSpaceNotDeleted } from "../spaces/index.js";

const isEmpty = (comment: object): comment is Schema<"EmptyReviewComment"> =>
  Object.keys(comment).length === 0;

/** The Markdown of a review's comment in any of its forms; undefined for none (absent or empty). */
async function commentMarkdown(
  comment: Schema<"SubmitChangeRequestReviewRequest">["comment"],
): Promise<string | undefined> {
  if (comment === undefined || isEmpty(comment)) return undefined;
  return documentMarkdown("document" in comment ? comment.document : comment);
}

/**
 * Records `userId`'s review of the member's change request at its current revision, with the comment
 * it carries, if any, posted as a thread of the change request by the reviewer in the same
 * transaction: both are written, or neither. The caller's right to review is checked before.
 */
export async function submitReview(
  services: Services,
  member: MemberChangeRequest,
  userId: string,
  body: Schema<"SubmitChangeRequestReviewRequest">,
): Promise<ChangeRequestReviewTable> {
  const { changeRequest } = member;
  // A JSON document converts in the content engine's workers, before the transaction opens.
  const markdown = await commentMarkdown(body.comment);
  if (markdown !== undefined) {
    if (markdown.trim() === "") throw badRequest("body/comment has no text: give one, or leave it out.");
    assertSpaceNotDeleted(member.space);
  }
  const commentId = markdown === undefined ? null : services.ids.next();
  return services.transaction(async (tx) => {
    const review = await insertReview(tx, {
      id: services.ids.next(),
      change_request_id: changeRequest.id,
      reviewer_id: userId,
      status: body.status,
      revision_id: changeRequest.revision_id,
      created_at: services.now(),
      comment_id: commentId,
    });
    if (commentId !== null && markdown !== undefined)
      await postComment(tx, services, commentParentOf(member), { id: commentId, userId, markdown });
    return review;
  });
}
