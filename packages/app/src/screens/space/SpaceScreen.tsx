import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { $api } from "../../api/client.js";
import { useDisclosure } from "../../components/disclosure.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { useShownOrganization } from "../../layout/shell-context.js";
import { paths } from "../../routes/paths.js";
import { ContentAccess } from "../people/ContentAccess.js";
import { PageTree } from "./PageTree.js";
import { PageView } from "./PageView.js";
import { everyPage } from "./page-tree.js";
import { renderedPageOptions, usePages } from "./queries.js";
import { SpaceSearch } from "./SpaceSearch.js";
import { ChangeRequestsView, FilesView, GitView, LinksView } from "./SpaceViews.js";
import "../../styles/blocks.css";
import "./space.css";

/** The space's sections besides its pages: a query (`?view=`), which no page path can clash with. */
const VIEWS = ["changes", "files", "links", "git"] as const;
type View = (typeof VIEWS)[number];
const isView = (value: string | null): value is View => VIEWS.some((view) => view === value);

/** A space: its Pages tree, the page being read (the rest of the path), its sections and its search. */
export default function SpaceScreen() {
  const { spaceId = "", "*": pagePath = "" } = useParams();
  const [params] = useSearchParams();
  const wanted = params.get("view");
  const view = isView(wanted) ? wanted : undefined;
  const space = $api.useQuery("get", "/v1/spaces/{spaceId}", { params: { path: { spaceId } } });
  useShownOrganization(space.data?.organization);

  if (space.isPending) return <Loading />;
  if (space.isError) return <ErrorView error={space.error} />;
  return (
    <div className="space-screen">
      <div className="space-top">
        <p className="space-title">
          <Link to={paths.space(spaceId)}>{space.data.title}</Link>
        </p>
        {space.data.permissions.admin && (
          <ContentAccess kind="space" id={spaceId} organizationId={space.data.organization} />
        )}
        <SpaceSections spaceId={spaceId} view={view} />
        <SpaceSearch spaceId={spaceId} />
      </div>
      {view === undefined && <Reading space={space.data} pagePath={pagePath} />}
      {view === "changes" && <ChangeRequestsView spaceId={spaceId} />}
      {view === "files" && <FilesView spaceId={spaceId} />}
      {view === "links" && <LinksView spaceId={spaceId} />}
      {view === "git" && <GitView space={space.data} />}
    </div>
  );
}

/** Links to the space's sections, the current one marked. */
function SpaceSections({ spaceId, view }: { spaceId: string; view: View | undefined }) {
  const sections: [View | undefined, string][] = [
    [undefined, t("space.pages")],
    ["changes", t("space.changes")],
    ["files", t("space.files")],
    ["links", t("space.links")],
    ["git", t("space.git")],
  ];
  return (
    <nav className="space-sections" aria-label={t("space.sections")}>
      <ul>
        {sections.map(([section, label]) => (
          <li key={label}>
            <Link
              to={section ? `${paths.space(spaceId)}?view=${section}` : paths.space(spaceId)}
              aria-current={section === view ? "page" : undefined}
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The Pages tree (collapsible on a phone) beside the page at `pagePath`, or the first document page. */
function Reading({ space, pagePath }: { space: Schema<"Space">; pagePath: string }) {
  const pages = usePages(space.id);
  const queryClient = useQueryClient();
  const tree = useDisclosure();
  if (pages.isPending) return <Loading />;
  if (pages.isError) return <ErrorView error={pages.error} />;
  const all = everyPage(pages.data.pages);
  const path = pagePath.replace(/^\/+|\/+$/g, "");
  const page =
    path === "" ? all.find((candidate) => candidate.type === "document") : all.find((p) => p.path === path);
  return (
    <div className="space-reading">
      <div className="space-tree-panel">
        <button className="space-tree-toggle" {...tree.toggle}>
          {t("space.pages")}
        </button>
        <div id={tree.id} className="space-tree-box" data-open={tree.open}>
          <PageTree
            pages={pages.data.pages}
            currentPath={page?.path}
            pageHref={(target) => paths.space(space.id, target.path)}
            prefetch={(target) => void queryClient.prefetchQuery(renderedPageOptions(space.id, target.id))}
          />
        </div>
      </div>
      {page && page.type === "document" ? (
        <PageView
          key={page.id}
          spaceId={space.id}
          page={page}
          actions={canEditLive(space) && <EditPage spaceId={space.id} page={page} />}
        />
      ) : (
        <div className="space-page">
          <h1>{page ? page.title : path === "" ? t("space.noPages") : t("space.notFound")}</h1>
          {page === undefined && path !== "" && <p>{t("space.notFoundHelp", { path })}</p>}
        </div>
      )}
    </div>
  );
}

/** A space edited live (its `editMode`), by someone who may edit: its pages have **Edit**. A locked one has none. */
const canEditLive = (space: Schema<"Space">) => space.editMode === "live" && space.permissions.edit;

/** **Edit**: a change request opened for this edit, at this page in the editor (merged with its Merge). */
function EditPage({ spaceId, page }: { spaceId: string; page: Schema<"RevisionPage"> }) {
  const navigate = useNavigate();
  const open = $api.useMutation("post", "/v1/spaces/{spaceId}/change-requests", {
    onSuccess: (cr) => navigate(paths.changeRequest(spaceId, cr.number, page.path)),
  });
  return (
    <div className="page-actions">
      <button
        type="button"
        disabled={open.isPending}
        onClick={() =>
          open.mutate({
            params: { path: { spaceId } },
            body: { subject: t("space.editSubject", { title: page.title }) },
          })
        }
      >
        {t("space.edit")}
      </button>
      {open.error != null && <ErrorView error={open.error} />}
    </div>
  );
}
