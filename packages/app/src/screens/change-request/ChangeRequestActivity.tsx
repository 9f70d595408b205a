import type { Schema } from "@quire/client";
import { Link } from "react-router";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { paths } from "../../routes/paths.js";
import { formatTime } from "../account/format.js";
import type { ChangeRequestPath } from "./queries.js";

/** How many changes, comments and replies are listed: a change request is read, not paged through. */
const LISTED = 100;

type Change = Schema<"RevisionSemanticChange">;

/** What a change is about: a page (linked to, unless removed) or a file (to download). */
function changed(change: Change, spaceId: string, number: number) {
  switch (change.type) {
    case "file_created":
      return (
        <a href={change.file.downloadURL} download={change.file.name}>
          {change.file.name}
        </a>
      );
    case "page_deleted":
      return <span>{change.page.title}</span>;
    default:
      return <Link to={paths.changeRequest(spaceId, number, change.page.path)}>{change.page.title}</Link>;
  }
}

/** What the change request changes in the main content: what merging it brings. */
export function ChangesList({ path, number }: { path: ChangeRequestPath; number: number }) {
  const changes = $api.useQuery("get", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes", {
    params: { path, query: { limit: LISTED } },
  });
  return (
    <section className="cr-section" aria-labelledby="cr-changes-heading">
      <h2 id="cr-changes-heading">{t("changeRequest.changes")}</h2>
      {changes.isPending && <Loading />}
      {changes.isError && <ErrorView error={changes.error} />}
      {changes.data?.changes.length === 0 && <p>{t("changeRequest.noChanges")}</p>}
      <ul className="space-list">
        {changes.data?.changes.map((change) => (
          <li key={`${change.type}-${change.type === "file_created" ? change.file.id : change.page.id}`}>
            {t(`changeRequest.change.${change.type}`)}: {changed(change, path.spaceId, number)}
          </li>
        ))}
      </ul>
      {changes.data?.more !== undefined && (
        <p>{t("changeRequest.moreChanges", { count: changes.data.more })}</p>
      )}
    </section>
  );
}

/** The change request's comments, oldest first, with their replies: read only here (writing them is issue 53). */
export function CommentsList({ path }: { path: ChangeRequestPath }) {
  const comments = $api.useQuery("get", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments", {
    params: { path, query: { order: "asc", limit: LISTED } },
  });
  return (
    <section className="cr-section" aria-labelledby="cr-comments-heading">
      <h2 id="cr-comments-heading">{t("changeRequest.comments", { count: comments.data?.count ?? 0 })}</h2>
      {comments.isPending && <Loading />}
      {comments.isError && <ErrorView error={comments.error} />}
      {comments.data?.items.length === 0 && <p>{t("changeRequest.noComments")}</p>}
      {comments.data?.items.map((comment) => (
        <Thread key={comment.id} path={path} comment={comment} />
      ))}
      {comments.data?.next && <p>{t("changeRequest.laterComments", { count: LISTED })}</p>}
    </section>
  );
}

/** Who wrote a comment or a reply, and when, then its text (Markdown, as written). */
function Said({ item }: { item: Schema<"Comment"> | Schema<"CommentReply"> }) {
  return (
    <>
      <p className="space-meta">
        {t("changeRequest.commentBy", { name: item.postedBy.displayName, date: formatTime(item.postedAt) })}
      </p>
      <p className="cr-comment-body">{item.body.markdown}</p>
    </>
  );
}

/** One comment and its replies (asked for only when it has some). */
function Thread({ path, comment }: { path: ChangeRequestPath; comment: Schema<"Comment"> }) {
  const replies = $api.useQuery(
    "get",
    "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies",
    { params: { path: { ...path, commentId: comment.id }, query: { limit: LISTED } } },
    { enabled: comment.replies > 0 },
  );
  return (
    <article className="cr-comment">
      {comment.status === "resolved" && <p className="space-status">{t("changeRequest.resolved")}</p>}
      <Said item={comment} />
      {replies.isError && <ErrorView error={replies.error} />}
      {replies.data && replies.data.items.length > 0 && (
        <ul className="cr-replies" aria-label={t("changeRequest.replies")}>
          {replies.data.items.map((reply) => (
            <li key={reply.id}>
              <Said item={reply} />
            </li>
          ))}
        </ul>
      )}
      {replies.data?.next && <p>{t("changeRequest.laterReplies")}</p>}
    </article>
  );
}
