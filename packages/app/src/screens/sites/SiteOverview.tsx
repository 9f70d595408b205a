import { useId } from "react";
import { useNavigate } from "react-router";
import { $api } from "../../api/client.js";
import { ErrorView } from "../../components/ErrorView.js";
import { FormDialog } from "../../components/FormDialog.js";
import { t } from "../../i18n/index.js";
import { paths } from "../../routes/paths.js";
import { type SiteTabProps, useRefreshSites } from "./queries.js";
import { isVisibility, VISIBILITIES, visibilityLabel } from "./visibility.js";

/** A site at a glance: published or not (and the button that changes it), its audience, its address. */
export function SiteOverview({ organizationId, site }: SiteTabProps) {
  const id = useId();
  const refresh = useRefreshSites();
  const path = { params: { path: { organizationId, siteId: site.id } } };
  const publish = $api.useMutation("post", "/v1/orgs/{organizationId}/sites/{siteId}/publish", {
    onSuccess: refresh,
  });
  const unpublish = $api.useMutation("post", "/v1/orgs/{organizationId}/sites/{siteId}/unpublish", {
    onSuccess: refresh,
  });
  const update = $api.useMutation("patch", "/v1/orgs/{organizationId}/sites/{siteId}", {
    onSuccess: refresh,
  });
  const toggling = site.published ? unpublish : publish;

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t("sites.tab.overview")}</h2>
      <dl className="site-facts">
        <dt>{t("sites.state")}</dt>
        <dd>
          <span className="site-state" data-published={site.published}>
            {site.published ? t("sites.published") : t("sites.unpublished")}
          </span>{" "}
          <button
            type="button"
            disabled={publish.isPending || unpublish.isPending}
            onClick={() => toggling.mutate(path)}
          >
            {site.published ? t("sites.unpublish") : t("sites.publish")}
          </button>
        </dd>
        <dt>{t("sites.address")}</dt>
        <dd>
          {site.published && site.urls.published ? (
            <a href={site.urls.published}>{site.urls.published}</a>
          ) : (
            t("sites.noAddress")
          )}
        </dd>
        <dt>
          <label htmlFor={`${id}-visibility`}>{t("sites.visibility")}</label>
        </dt>
        <dd>
          <select
            id={`${id}-visibility`}
            value={site.visibility}
            disabled={update.isPending}
            aria-describedby={`${id}-visibility-help`}
            onChange={(event) => {
              const visibility = event.target.value;
              if (isVisibility(visibility)) update.mutate({ ...path, body: { visibility } });
            }}
          >
            {VISIBILITIES.map((visibility) => (
              <option key={visibility} value={visibility}>
                {visibilityLabel(visibility)}
              </option>
            ))}
          </select>
          <p id={`${id}-visibility-help`} className="hint">
            {t("sites.visibilityHelp")}
          </p>
        </dd>
        <dt>{t("sites.spaces")}</dt>
        <dd>{site.siteSpaces}</dd>
      </dl>
      {toggling.error != null && <ErrorView error={toggling.error} />}
      {update.error != null && <ErrorView error={update.error} />}
      <DeleteSite organizationId={organizationId} site={site} />
    </section>
  );
}

/** "Delete site", confirmed in a dialog; the spaces it published are kept. */
function DeleteSite({ organizationId, site }: SiteTabProps) {
  const navigate = useNavigate();
  const refresh = useRefreshSites();
  const remove = $api.useMutation("delete", "/v1/orgs/{organizationId}/sites/{siteId}");
  return (
    <div className="danger-zone">
      <FormDialog
        label={t("sites.delete")}
        submitLabel={t("sites.deleteConfirm")}
        pending={remove.isPending}
        error={remove.error}
        onOpen={remove.reset}
        onSubmit={(close) =>
          remove.mutate(
            { params: { path: { organizationId, siteId: site.id } } },
            {
              onSuccess: () => {
                close();
                navigate(paths.sites(organizationId));
                void refresh();
              },
            },
          )
        }
      >
        <p>{t("sites.deleteWarning", { title: site.title })}</p>
      </FormDialog>
    </div>
  );
}
