import { Route, Routes } from "react-router";
import { NotFound } from "../../routes/NotFound.js";
import { SiteList } from "./SiteList.js";
import { SiteScreen } from "./SiteScreen.js";
import "./sites.css";

/** The organization's sites (`/orgs/:organizationId/sites`) and each site's screen, with its tabs. */
export default function SitesScreen() {
  return (
    <Routes>
      <Route index element={<SiteList />} />
      <Route path=":siteId/*" element={<SiteScreen />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
