import { defineArea } from "../area.js";
import type { Services } from "../services.js";
import { siteAccessHandlers, visitorAccess } from "./access-handlers.js";
import { customizationAccess, customizationHandlers } from "./customization/handlers.js";
import { siteAccess, siteHandlers } from "./handlers.js";
import { siteRedirectAccess, siteRedirectHandlers } from "./redirects/handlers.js";
import { sectionAccess, siteSectionHandlers } from "./sections/handlers.js";
import { keptPages, publishedSiteRoutes } from "./serve.js";
import { siteSpaceAccess, siteSpaceHandlers } from "./site-spaces/handlers.js";

/** Operations of `spec/sites/`, and the published sites themselves, served as HTML. */
export const sitesArea = defineArea({
  name: "sites",
  access: {
    ...siteAccess,
    ...visitorAccess,
    ...sectionAccess,
    ...siteSpaceAccess,
    ...siteRedirectAccess,
    ...customizationAccess,
  },
  handlers: (services: Services) => ({
    ...siteHandlers(services),
    ...siteAccessHandlers(services),
    ...siteSectionHandlers(services),
    ...siteSpaceHandlers(services),
    ...siteRedirectHandlers(services),
    ...customizationHandlers(services),
  }),
  routes: publishedSiteRoutes,
  kept: keptPages,
});
