import { defineArea } from "../area.js";

/** Operations of `spec/sites.tsp`; each moves from `pending` to `handlers` when it is written. */
export const sitesArea = defineArea({
  name: "sites",
  pending: [
    "createSite",
    "deleteSiteById",
    "getPublishedContentSite",
    "getSiteAdaptiveSchema",
    "getSiteById",
    "listSites",
    "updateSiteAdaptiveSchema",
    "updateSiteById",
  ],
});
