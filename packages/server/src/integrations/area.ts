import { defineArea } from "../area.js";
import { integrationAssetRoutes } from "./assets.js";
import { integrationAccess, integrationHandlers } from "./handlers.js";

/** Operations of `spec/integrations.tsp`. */
export const integrationsArea = defineArea({
  name: "integrations",
  access: integrationAccess,
  handlers: integrationHandlers,
  routes: integrationAssetRoutes,
});
