import { defineArea } from "../area.js";
import { integrationAssetRoutes } from "./assets.js";
import { integrationHandlers } from "./handlers.js";

/** Operations of `spec/integrations.tsp`. */
export const integrationsArea = defineArea({
  name: "integrations",
  handlers: integrationHandlers,
  routes: integrationAssetRoutes,
});
