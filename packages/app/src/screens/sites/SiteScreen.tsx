import { Route, Routes, useParams } from "react-router";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { TabNav } from "../../components/TabNav.js";
import { type MessageKey, t } from "../../i18n/index.js";
import { useShell } from "../../layout/shell-context.js";
import { paths } from "../../routes/paths.js";
import { AdaptiveSchema } from "./AdaptiveSchema.js";
import { SiteAccess } from "./SiteAccess.js";
import { SiteCustomization } from "./SiteCustomization.js";
import { SiteOverview } from "./SiteOverview.js";
import { SiteRedirects } from "./SiteRedirects.js";
import { SiteSections } from "./SiteSections.js";

/** The site's tabs: each at `paths.site(org, site, tab)`, so a deep link or the back button reopens it. */
const TABS: readonly { tab: string; label: MessageKey }[] = [
  { tab: "", label: "sites.tab.overview" },
  { tab: "sections", label: "sites.tab.sections" },
  { tab: "customization", label: "sites.tab.customization" },
  { tab: "access", label: "sites.tab.access" },
  { tab: "redirects", label: "sites.tab.redirects" },
  { tab: "adaptive", label: "sites.tab.adaptive" },
];

/** One site (`urls.app` of the API's site): its title, its tabs, and the open tab. */
export function SiteScreen() {
  const { organization } = useShell();
  const { siteId = "" } = useParams();
  const site = $api.useQuery("get", "/v1/orgs/{organizationId}/sites/{siteId}", {
    params: { path: { organizationId: organization.id, siteId } },
  });
  if (site.isPending) return <Loading />;
  if (site.isError) return <ErrorView error={site.error} />;
  const props = { organizationId: organization.id, site: site.data };
  return (
    <>
      <h1>{site.data.title}</h1>
      <TabNav
        label={t("sites.tabs")}
        tabs={TABS}
        to={(tab) => paths.site(organization.id, siteId, tab)}
        end
      />
      <Routes>
        <Route index element={<SiteOverview {...props} />} />
        <Route path="sections" element={<SiteSections {...props} />} />
        <Route path="customization" element={<SiteCustomization {...props} />} />
        <Route path="access" element={<SiteAccess {...props} />} />
        <Route path="redirects" element={<SiteRedirects {...props} />} />
        <Route path="adaptive" element={<AdaptiveSchema {...props} />} />
        <Route path="*" element={<p>{t("error.not_found")}</p>} />
      </Routes>
    </>
  );
}
