import { defineArea } from "../area.js";
import { integrationAssetRoutes } from "./assets.js";
import { integrationEndpointRoutes } from "./endpoint.js";
import { integrationAccess, integrationHandlers } from "./handlers.js";
import { integrationEventTasks } from "./tasks.js";

/** Operations of `spec/integrations.tsp`; the tasks sending integration events. */
export const integrationsArea = defineArea({
  name: "integrations",
  access: integrationAccess,
  handlers: integrationHandlers,
  routes: (router, services) => {
    integrationAssetRoutes(router, services);
    integrationEndpointRoutes(router, services);
  },
  // Integration events go at the webhooks' pace; their payloads name users by their API URLs.
  tasks: ({ fetcher, secretKey, urls, eventDelivery }) =>
    integrationEventTasks({ fetcher, secretKey, urls }, eventDelivery),
});
