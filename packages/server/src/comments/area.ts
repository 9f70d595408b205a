import { defineArea } from "../area.js";

/** Operations of `spec/comments.tsp`; each moves from `pending` to `handlers` when it is written. */
export const commentsArea = defineArea({
  name: "comments",
  pending: [
    "deleteCommentInChangeRequest",
    "deleteCommentReplyInChangeRequest",
    "getCommentInChangeRequest",
    "getCommentReplyInChangeRequest",
    "listCommentRepliesInChangeRequest",
    "listCommentsInChangeRequest",
    "postCommentInChangeRequest",
    "postCommentReplyInChangeRequest",
    "updateCommentInChangeRequest",
    "updateCommentReplyInChangeRequest",
    "deleteCommentInSpace",
    "deleteCommentReplyInSpace",
    "getCommentInSpace",
    "getCommentReplyInSpace",
    "listCommentRepliesInSpace",
    "listCommentsInSpace",
    "postCommentInSpace",
    "postCommentReplyInSpace",
    "updateCommentInSpace",
    "updateCommentReplyInSpace",
  ],
});
