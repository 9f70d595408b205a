import type { Schema } from "@quire/api-types";
import { contentEngine } from "../content/engine/index.js";
import type { Transaction } from "../db/database.js";
import { recordEvent } from "../events/record.js";
import { badRequest } from "../http/errors.js";
import type { Services } from "../services.js";
import type { MemberParent } from "./access.js";
import { insertComment } from "./store.js";

/**
 * The Markdown of a text in GitBook's document form: a JSON document, converted in the content
 * engine's workers (400 when it is not one of GitBook's), or Markdown in its envelope. Await it before
 * a transaction opens, never inside one.
 */
export async function documentMarkdown(document: Schema<"CommentDocumentBody">["document"]): Promise<string> {
  if ("markdown" in document) return document.markdown;
  const { meta, ...content } = document;
  if (meta !== undefined && Object.keys(meta).length > 0)
    throw badRequest(
      "The document's `meta` cannot be kept: Quire stores a comment's text only. Send the document without it.",
    );
  return contentEngine().fromDocument(content);
}

/** The Markdown of a body sent in any form: Markdown, or GitBook's document form (see above). */
export async function markdownOf(body: Schema<"CommentBodyInput">): Promise<string> {
  return "document" in body ? documentMarkdown(body.document) : body.markdown;
}

/** Records an event about a comment or reply of `member`'s parent (the space or a change request). */
export function recordCommentEvent(
  tx: Transaction,
  services: Services,
  { space, parent }: MemberParent,
  actorId: string,
  type: "comment_created" | "comment_reply_created",
  data: { comment: string; reply?: string; page?: string },
) {
  return recordEvent(tx, services, {
    organizationId: space.organization_id,
    type,
    actorId,
    spaceId: space.id,
    data: {
      space: space.id,
      ...(parent.changeRequestId !== null && { changeRequest: parent.changeRequestId }),
      ...data,
    },
  });
}

/**
 * Opens a thread of `member`'s parent, by `userId`, in the caller's transaction: the comment and its
 * event. The space may change (checked before) and a target page is in the parent's content.
 */
export async function postComment(
  tx: Transaction,
  services: Services,
  member: MemberParent,
  comment: { id: string; userId: string; markdown: string; page?: string; node?: string },
): Promise<void> {
  const { parent } = member;
  await insertComment(tx, {
    id: comment.id,
    space_id: parent.spaceId,
    change_request_id: parent.changeRequestId,
    status: "open",
    created_at: services.now(),
    posted_by: comment.userId,
    body_markdown: comment.markdown,
    edited_at: null,
    target_page_id: comment.page ?? null,
    target_node_id: comment.node ?? null,
    target_revision_id: parent.revisionId,
    resolved_at: null,
    resolved_by: null,
  });
  await recordCommentEvent(tx, services, member, comment.userId, "comment_created", {
    comment: comment.id,
    ...(comment.page !== undefined && { page: comment.page }),
  });
}
