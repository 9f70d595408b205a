import { defineArea } from "../area.js";

/** Operations of `spec/change-requests.tsp`; each moves from `pending` to `handlers` when it is written. */
export const changeRequestsArea = defineArea({
  name: "change-requests",
  pending: [
    "createChangeRequest",
    "deleteCommentInChangeRequest",
    "deleteCommentReplyInChangeRequest",
    "getChangeRequestById",
    "getChangeRequestPDF",
    "getCommentInChangeRequest",
    "getCommentReplyInChangeRequest",
    "getFileInChangeRequestById",
    "getPageInChangeRequestById",
    "getRevisionOfChangeRequestById",
    "importContentInChangeRequest",
    "listChangeRequestFileBacklinks",
    "listChangeRequestsForSpace",
    "listCommentRepliesInChangeRequest",
    "listCommentsInChangeRequest",
    "listFilesInChangeRequestById",
    "listPageLinksInChangeRequest",
    "listPagesInChangeRequest",
    "mergeChangeRequest",
    "postCommentInChangeRequest",
    "postCommentReplyInChangeRequest",
    "updateChangeRequest",
    "updateChangeRequestById",
    "updateChangeRequestContent",
    "updateCommentInChangeRequest",
    "updateCommentReplyInChangeRequest",
  ],
});
