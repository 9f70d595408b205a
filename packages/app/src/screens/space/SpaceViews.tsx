import type { Schema } from "@quire/client";
import { useMutation, useQueries, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { $api, fetchClient } from "../../api/client.js";
import type { Creator } from "../../api/create.js";
import { CreateDialog } from "../../components/CreateDialog.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { ItemList, type ItemsQuery } from "../../components/ItemList.js";
import { t } from "../../i18n/index.js";
import { paths } from "../../routes/paths.js";

/** How many items a view lists: the first page of each list. */
const LISTED = 100;
const firstPage = (spaceId: string) => ({ params: { path: { spaceId }, query: { limit: LISTED } } });

/** Open change requests first, then drafts, then the rest. */
const STATUSES: Schema<"ChangeRequestStatus">[] = ["open", "draft", "merged", "archived"];

/** The space's change requests, each leading to its screen, and a way to start one. */
export function ChangeRequestsView({ spaceId }: { spaceId: string }) {
  // The list answers one status at a time (open by default): each is asked for, open ones shown first.
  const lists = useQueries({
    queries: STATUSES.map((status) =>
      $api.queryOptions("get", "/v1/spaces/{spaceId}/change-requests", {
        params: { path: { spaceId }, query: { status, limit: LISTED } },
      }),
    ),
  });
  const failed = lists.find((list) => list.isError);
  const pending = lists.some((list) => list.isPending);
  const items = lists.flatMap((list) => list.data?.items ?? []);
  return (
    <section aria-labelledby="space-view-heading">
      <div className="space-view-head">
        <h1 id="space-view-heading">{t("space.changes")}</h1>
        <CreateDialog
          label={t("space.newChangeRequest")}
          fieldLabel={t("space.subject")}
          creator={useCreateChangeRequest(spaceId)}
        />
      </div>
      {pending && <Loading />}
      {failed && <ErrorView error={failed.error} />}
      {!pending && !failed && items.length === 0 && <p>{t("space.noChangeRequests")}</p>}
      <ul className="space-list">
        {items.map((cr) => (
          <li key={cr.id}>
            <Link to={paths.changeRequest(spaceId, cr.number)}>
              {t("space.changeRequestTitle", {
                number: cr.number,
                subject: cr.subject || t("space.untitled"),
              })}
            </Link>{" "}
            <span className={`space-status status-${cr.status}`}>{t(`space.status.${cr.status}`)}</span>
            <span className="space-meta"> {t("space.by", { name: cr.createdBy.displayName })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Creates a change request with the subject asked for, then opens it. */
function useCreateChangeRequest(spaceId: string): Creator {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mutation = $api.useMutation("post", "/v1/spaces/{spaceId}/change-requests", {
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: ["get", "/v1/spaces/{spaceId}/change-requests"] }),
  });
  return {
    create: (subject, done) =>
      mutation.mutate(
        { params: { path: { spaceId } }, body: { subject } },
        {
          onSuccess: (cr) => {
            done();
            navigate(paths.changeRequest(spaceId, cr.number));
          },
        },
      ),
    pending: mutation.isPending,
    error: mutation.error,
    reset: mutation.reset,
  };
}

const bytes = new Intl.NumberFormat(undefined, { style: "unit", unit: "kilobyte", maximumFractionDigits: 1 });

/** The space's files: name, size, and a link to download each. */
export function FilesView({ spaceId }: { spaceId: string }) {
  const files = $api.useQuery("get", "/v1/spaces/{spaceId}/content/files", firstPage(spaceId));
  return (
    <ListView
      heading={t("space.files")}
      query={files}
      empty={t("space.noFiles")}
      item={(file) => (
        <li key={file.id}>
          <a href={file.downloadURL} download={file.name}>
            {file.name}
          </a>
          <span className="space-meta"> {bytes.format(file.size / 1000)}</span>
        </li>
      )}
    >
      {files.data?.next && <p>{t("space.more", { count: LISTED })}</p>}
    </ListView>
  );
}

/** What a link leads to, in words. */
function targetName(target: Schema<"ContentReference"> | undefined): string {
  switch (target?.kind) {
    case undefined:
      return t("space.unknownTarget");
    case "url":
      return target.url;
    case "page":
      return target.page.title;
    case "file":
      return target.file.name;
    case "space":
      return target.space.title;
    case "collection":
      return target.collection.title;
    case "user":
      return target.user.displayName;
    case "reusable-content":
      return target.reusableContent.title;
    case "openapi":
      return target.openAPISpec.slug;
  }
}

/** The pages of this space a link is written in (other places are named by their kind). */
function placeLink(spaceId: string, place: Schema<"ContentReference">, index: number) {
  if (place.kind === "page" && place.space.id === spaceId)
    return (
      <Link key={place.page.id} to={paths.space(spaceId, place.page.path)}>
        {place.page.title}
      </Link>
    );
  return <span key={`${place.kind}-${index}`}>{targetName(place)}</span>;
}

/** The space's links and where they are written, broken ones flagged. */
export function LinksView({ spaceId }: { spaceId: string }) {
  const links = $api.useQuery("get", "/v1/spaces/{spaceId}/links", firstPage(spaceId));
  return (
    <ListView
      heading={t("space.links")}
      query={links}
      empty={t("space.noLinks")}
      summary={
        links.data && (
          <p>
            {t("space.linkStats", { total: links.data.stats.total, broken: links.data.stats.broken.total })}
          </p>
        )
      }
      item={(link, index) => (
        // A link target has no id of its own: its place in the list keys it.
        <li key={index} className={link.status === "broken" ? "link-broken" : undefined}>
          {link.status === "broken" && (
            <strong className="space-status status-broken">{t("space.broken")}</strong>
          )}{" "}
          {link.targetReference?.kind === "url" ? (
            <a href={link.targetReference.url} rel="noreferrer">
              {link.targetReference.url}
            </a>
          ) : (
            <span>{targetName(link.targetReference)}</span>
          )}
          <span className="space-meta">
            {" "}
            {t("space.linkedFrom")}{" "}
            {link.locationReferences.map((place, i) => [i > 0 && ", ", placeLink(spaceId, place, i)])}
          </span>
        </li>
      )}
    />
  );
}

/** One of the space's views listing what the API reads: its heading, `summary`, the list, then `children`. */
function ListView<Item>({
  heading,
  summary,
  children,
  ...list
}: {
  heading: string;
  summary?: ReactNode;
  children?: ReactNode;
  query: ItemsQuery<Item>;
  empty: string;
  item(item: Item, index: number): ReactNode;
}) {
  return (
    <section aria-labelledby="space-view-heading">
      <h1 id="space-view-heading">{heading}</h1>
      {summary}
      <ItemList className="space-list" {...list} />
      {children}
    </section>
  );
}

/** Git Sync: its state, and importing from or exporting to the repository when the caller may. */
export function GitView({ space }: { space: Schema<"Space"> }) {
  const spaceId = space.id;
  const info = $api.useQuery("get", "/v1/spaces/{spaceId}/git/info", { params: { path: { spaceId } } });
  const queryClient = useQueryClient();
  const repository = { url: info.data?.repoURL ?? "", ref: info.data?.ref ?? "" };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["get", "/v1/spaces/{spaceId}/git/info"] });
  const sync = useMutation({
    mutationFn: async (direction: "import" | "export") => {
      const params = { path: { spaceId } };
      const { error } =
        direction === "import"
          ? await fetchClient.POST("/v1/spaces/{spaceId}/git/import", { params, body: repository })
          : await fetchClient.POST("/v1/spaces/{spaceId}/git/export", {
              params,
              body: { ...repository, commitMessage: t("space.exportMessage") },
            });
      if (error) throw error;
    },
    onSuccess: refresh,
  });
  const operation = info.data?.operation;
  return (
    <section aria-labelledby="space-view-heading">
      <h1 id="space-view-heading">{t("space.git")}</h1>
      {info.isPending && <Loading />}
      {info.isError && <ErrorView error={info.error} />}
      {info.data && (
        <dl className="space-facts">
          <dt>{t("space.gitRepository")}</dt>
          <dd>{info.data.repoName ?? info.data.repoURL ?? t("space.gitNone")}</dd>
          <dt>{t("space.gitBranch")}</dt>
          <dd>{info.data.ref ?? t("space.gitNone")}</dd>
          <dt>{t("space.gitStatus")}</dt>
          <dd>{t(`space.gitInstallation.${info.data.installationStatus}`)}</dd>
          {operation && (
            <>
              <dt>{t("space.gitLast")}</dt>
              <dd>
                {t(`space.gitDirection.${operation.direction}`)}: {t(`space.gitState.${operation.state}`)}
                {operation.error && ` ${operation.error}`}
              </dd>
            </>
          )}
        </dl>
      )}
      {space.permissions.triggerGitSync && (
        <div className="space-actions">
          <button type="button" disabled={sync.isPending} onClick={() => sync.mutate("import")}>
            {t("space.gitImport")}
          </button>
          <button type="button" disabled={sync.isPending} onClick={() => sync.mutate("export")}>
            {t("space.gitExport")}
          </button>
        </div>
      )}
      {sync.isError && <ErrorView error={sync.error} />}
      {sync.isSuccess && <p role="status">{t("space.gitStarted")}</p>}
    </section>
  );
}
