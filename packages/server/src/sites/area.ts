import { defineArea } from "../area.js";
import type { Services } from "../services.js";
import { siteAccessHandlers } from "./access-handlers.js";
import { siteHandlers } from "./handlers.js";
import { publishedSiteRoutes } from "./serve.js";

/** Operations of `spec/sites.tsp`, and the published sites themselves, served as HTML. */
export const sitesArea = defineArea({
  name: "sites",
  handlers: (services: Services) => ({ ...siteHandlers(services), ...siteAccessHandlers(services) }),
  routes: publishedSiteRoutes,
});
