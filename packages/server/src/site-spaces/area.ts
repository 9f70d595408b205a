import { defineArea } from "../area.js";

/** Operations of `spec/site-spaces.tsp`; each moves from `pending` to `handlers` when it is written. */
export const siteSpacesArea = defineArea({
  name: "site-spaces",
  pending: [
    "addSpaceToSite",
    "deleteSiteSpaceById",
    "listSiteSpaces",
    "moveSiteSpace",
    "updateSiteSpaceById",
  ],
});
