import { defineArea } from "../area.js";

/** Operations of `spec/site-sections.tsp`; each moves from `pending` to `handlers` when it is written. */
export const siteSectionsArea = defineArea({
  name: "site-sections",
  pending: [
    "addSectionGroupToSite",
    "addSectionToGroup",
    "addSectionToSite",
    "deleteSiteSectionById",
    "deleteSiteSectionGroupById",
    "listSiteSectionGroups",
    "listSiteSections",
    "moveSiteSection",
    "moveSiteSectionGroup",
    "removeSectionFromGroup",
    "updateSiteSectionById",
    "updateSiteSectionGroupById",
  ],
});
