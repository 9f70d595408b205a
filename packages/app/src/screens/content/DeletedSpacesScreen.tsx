import type { Schema } from "@quire/client";
import { useRef, useState } from "react";
import { Link, useParams } from "react-router";
import { $api, fetchClient } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { useShownOrganization } from "../../layout/shell-context.js";
import { paths } from "../../routes/paths.js";
import { loadedItems, usePages } from "../people/paged.js";
import { formatTime } from "../settings/format.js";
import { useContentActions } from "./content-actions.js";
import "./content.css";

const DELETED = "/v1/orgs/{organizationId}/deleted-spaces";
/** How long a deleted space can be restored, as the API keeps it. */
const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

type Space = Schema<"Space">;

/**
 * The organization's spaces deleted in the last 7 days, the last deleted first, each with when it goes
 * for good and, for whom may, Restore: the restored space is back in the Content navigation at once.
 */
export default function DeletedSpacesScreen() {
  const { organizationId = "" } = useParams();
  useShownOrganization(organizationId);
  const init = { params: { path: { organizationId } } };
  const deleted = usePages<Space>($api.queryOptions("get", DELETED, init).queryKey, (page, signal) =>
    fetchClient.GET(DELETED, { signal, params: { path: { organizationId }, query: { page } } }),
  );
  const [restored, setRestored] = useState<{ id: string; title: string }>();
  const [failure, setFailure] = useState<unknown>();
  const heading = useRef<HTMLHeadingElement>(null);
  const actions = useContentActions({
    onFailure: ({ error }) => setFailure(error),
    onDeleted: () => {},
  });
  const items = loadedItems(deleted.data);

  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        {t("trash.heading")}
      </h1>
      <p className="hint">{t("trash.help")}</p>
      <div role="status">
        {restored && (
          <p>
            {t("trash.restored", { title: restored.title })}{" "}
            <Link to={paths.space(restored.id)}>{t("trash.open", { title: restored.title })}</Link>
          </p>
        )}
      </div>
      {failure != null && <ErrorView error={failure} />}
      {deleted.isPending && <Loading />}
      {deleted.isError && <ErrorView error={deleted.error} />}
      {deleted.isSuccess && items.length === 0 && <p>{t("trash.empty")}</p>}
      {items.length > 0 && (
        <ul className="trash-list" aria-label={t("trash.heading")}>
          {items.map((space) => (
            <li key={space.id}>
              <div>
                <h3>{space.title}</h3>
                {space.deletedAt && (
                  <p className="hint">
                    {t("trash.when", {
                      deleted: formatTime(space.deletedAt),
                      until: formatTime(new Date(Date.parse(space.deletedAt) + RETENTION_MS).toISOString()),
                    })}
                  </p>
                )}
              </div>
              {space.permissions.admin && (
                <button
                  type="button"
                  disabled={actions.restoring}
                  aria-label={t("trash.restoreNamed", { title: space.title })}
                  onClick={() => {
                    setFailure(undefined);
                    setRestored(undefined);
                    actions.restore({ kind: "space", id: space.id, title: space.title }, () => {
                      setRestored({ id: space.id, title: space.title });
                      heading.current?.focus();
                    });
                  }}
                >
                  {t("content.restore")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {deleted.hasNextPage && (
        <button
          type="button"
          onClick={() => void deleted.fetchNextPage()}
          disabled={deleted.isFetchingNextPage}
        >
          {t("trash.more")}
        </button>
      )}
    </>
  );
}
