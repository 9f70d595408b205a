import type { Schema } from "@quire/client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { $api } from "../../api/client.js";
import type { Creator } from "../../api/create.js";
import { CreateDialog } from "../../components/CreateDialog.js";
import { useDisclosure } from "../../components/disclosure.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { useShownOrganization } from "../../layout/shell-context.js";
import { paths } from "../../routes/paths.js";
import { formatTime } from "../account/format.js";
import { PageTree } from "../space/PageTree.js";
import { everyPage } from "../space/page-tree.js";
import { ChangesList, CommentsList } from "./ChangeRequestActivity.js";
import { usePageEditing } from "./PageActions.js";
import { type ChangeRequestPath, CONTENT, pagesOptions, refreshChangeRequest } from "./queries.js";
import "../space/space.css";
import "./change-request.css";

/** The editor is a chunk of its own, loaded only where pages are written. */
const PageEditor = lazy(() => import("../../editor/PageEditor.js"));

type Page = Schema<"RevisionPage">;

/** A change request still takes edits and can be merged; a merged or archived one cannot. */
const isActive = (cr: Schema<"ChangeRequest">) => cr.status === "open" || cr.status === "draft";

/**
 * A change request of a space: its subject, status and author, Merge and New page when the caller
 * may, its Pages tree beside the page at the path (`*`) or its first, in the editor, then what it
 * changes and its comments.
 */
export default function ChangeRequestScreen() {
  const { spaceId = "", number: numberParam = "", "*": pagePath = "" } = useParams();
  const number = Number(numberParam);
  const path = { spaceId, changeRequestId: numberParam };
  const space = $api.useQuery("get", "/v1/spaces/{spaceId}", { params: { path: { spaceId } } });
  const cr = $api.useQuery("get", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}", {
    params: { path },
  });
  useShownOrganization(space.data?.organization);
  const merge = useMerge();

  if (space.isPending || cr.isPending) return <Loading />;
  if (space.isError) return <ErrorView error={space.error} />;
  if (cr.isError) return <ErrorView error={cr.error} />;
  const { permissions } = space.data;
  const active = isActive(cr.data);
  return (
    <div className="space-screen cr-screen">
      <div className="cr-top">
        <p className="space-title">
          <Link to={paths.space(spaceId)}>{space.data.title}</Link>
        </p>
        <h1>{cr.data.subject || t("changeRequest.numbered", { number })}</h1>
        <p className="cr-meta">
          <span className={`space-status status-${cr.data.status}`}>
            {t(`space.status.${cr.data.status}`)}
          </span>{" "}
          <span className="space-meta">
            {t("changeRequest.by", {
              name: cr.data.createdBy.displayName,
              date: formatTime(cr.data.updatedAt),
            })}
          </span>
        </p>
        <div className="cr-actions">
          {permissions.edit && active && <NewPage path={path} number={number} />}
          {permissions.merge && active && (
            <button
              type="button"
              disabled={merge.isPending}
              onClick={() => merge.mutate({ params: { path } })}
            >
              {t("changeRequest.merge")}
            </button>
          )}
        </div>
        {/* Outside the actions: a refusal stays told once the change request, read again, hides Merge. */}
        {merge.isError && <ErrorView error={merge.error} />}
        {cr.data.status === "merged" && (
          <p role="status">
            {t("changeRequest.merged", { space: space.data.title })}{" "}
            <Link to={paths.space(spaceId)}>{t("changeRequest.openSpace")}</Link>
          </p>
        )}
      </div>
      <Writing path={path} number={number} pagePath={pagePath} editable={permissions.edit && active} />
      <ChangesList path={path} number={number} />
      <CommentsList path={path} />
    </div>
  );
}

/**
 * Merging the change request into the space's main content. Whatever the answer, the change request is
 * read again to show where it stands (merged, or merged meanwhile by someone else).
 */
function useMerge() {
  const queryClient = useQueryClient();
  return $api.useMutation("post", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge", {
    // A merge changes the space, its content and every list of change requests: all are read again.
    onSettled: () => queryClient.invalidateQueries(),
  });
}

/** New page: asks for its title, adds it (empty) at the end of the top level, then opens it. */
function NewPage({ path, number }: { path: ChangeRequestPath; number: number }) {
  return (
    <CreateDialog
      label={t("changeRequest.newPage")}
      fieldLabel={t("changeRequest.pageTitle")}
      creator={useInsertPage(path, number)}
    />
  );
}

function useInsertPage(path: ChangeRequestPath, number: number): Creator {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mutation = $api.useMutation("post", CONTENT);
  return {
    create: (title, done) => {
      // The answer is the change request: the new page is the one the tree did not have before.
      const shown = queryClient.getQueryData<Schema<"RevisionPageList">>(pagesOptions(path).queryKey);
      const before = new Set(everyPage(shown?.pages ?? []).map((page) => page.id));
      mutation.mutate(
        { params: { path }, body: { changes: [{ type: "insert_page", title, markdown: "" }] } },
        {
          onSuccess: async () => {
            await refreshChangeRequest(queryClient);
            const { pages } = await queryClient.fetchQuery(pagesOptions(path));
            const added = everyPage(pages).find((page) => !before.has(page.id));
            done();
            if (added) navigate(paths.changeRequest(path.spaceId, number, added.path));
          },
        },
      );
    },
    pending: mutation.isPending,
    error: mutation.error,
    reset: mutation.reset,
  };
}

/** The Pages tree (collapsible on a phone) beside the page at `pagePath`, or the first document page. */
function Writing({
  path,
  number,
  pagePath,
  editable,
}: {
  path: ChangeRequestPath;
  number: number;
  pagePath: string;
  editable: boolean;
}) {
  const pages = useQuery(pagesOptions(path));
  const tree = useDisclosure();
  const all = everyPage(pages.data?.pages ?? []);
  const wanted = pagePath.replace(/^\/+|\/+$/g, "");
  const page: Page | undefined =
    wanted === ""
      ? all.find((candidate) => candidate.type === "document")
      : all.find((p) => p.path === wanted);
  const editing = usePageEditing({ path, number, pages: pages.data?.pages ?? [], current: page });
  if (pages.isPending) return <Loading />;
  if (pages.isError) return <ErrorView error={pages.error} />;
  return (
    <div className="space-reading">
      <div className="space-tree-panel">
        <button className="space-tree-toggle" {...tree.toggle}>
          {t("space.pages")}
        </button>
        <div id={tree.id} className="space-tree-box" data-open={tree.open}>
          {editable && editing.failure}
          {all.length === 0 ? (
            <p className="space-empty">{t("changeRequest.noPages")}</p>
          ) : (
            <div
              className={editing.topLevel.over ? "content-tree drop-over" : "content-tree"}
              {...(editable && editing.topLevel.props)}
            >
              <PageTree
                pages={pages.data.pages}
                currentPath={page?.path}
                pageHref={(target) => paths.changeRequest(path.spaceId, number, target.path)}
                withHidden
                tools={editable ? editing.tools : undefined}
              />
              {editable && editing.topLevel.shown && <p className="top-drop">{t("content.dropTopLevel")}</p>}
            </div>
          )}
        </div>
      </div>
      <div className="cr-page">
        {page?.type === "document" ? (
          <Suspense fallback={<Loading />}>
            <PageEditor
              key={page.id}
              spaceId={path.spaceId}
              changeRequestNumber={number}
              pageId={page.id}
              editable={editable}
            />
          </Suspense>
        ) : page ? (
          <h2>{page.title}</h2>
        ) : (
          wanted !== "" && (
            <>
              <h2>{t("changeRequest.pageNotFound")}</h2>
              <p>{t("changeRequest.pageNotFoundHelp", { path: wanted })}</p>
            </>
          )
        )}
      </div>
      {editable && editing.dialogs}
    </div>
  );
}
