import { Link } from "react-router";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { useShell } from "../../layout/shell-context.js";
import { paths } from "../../routes/paths.js";
import { NewSiteDialog } from "./NewSiteDialog.js";
import { useSites } from "./queries.js";
import { visibilityLabel } from "./visibility.js";

/** The organization's sites: each a link to its screen, with whether it is published and to whom. */
export function SiteList() {
  const { organization } = useShell();
  const sites = useSites(organization.id);
  return (
    <>
      <div className="sites-heading">
        <h1>{t("sites.title")}</h1>
        <NewSiteDialog organizationId={organization.id} />
      </div>
      {sites.isPending && <Loading />}
      {sites.isError && <ErrorView error={sites.error} />}
      {sites.data?.length === 0 && <p>{t("sites.empty")}</p>}
      {sites.data && sites.data.length > 0 && (
        <ul className="site-list">
          {sites.data.map((site) => (
            <li key={site.id}>
              <Link to={paths.site(organization.id, site.id)}>{site.title}</Link>
              <span className="site-state" data-published={site.published}>
                {site.published ? t("sites.published") : t("sites.unpublished")}
              </span>
              <span className="site-audience">{visibilityLabel(site.visibility)}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
