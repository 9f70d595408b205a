import { defineArea } from "../area.js";
import { publicUrlFrom } from "../config.js";
import { urlsFor } from "../urls.js";
import { webhookSettingsFrom } from "../webhooks/index.js";
import { integrationAssetRoutes } from "./assets.js";
import { integrationAccess, integrationHandlers } from "./handlers.js";
import { integrationEventTasks } from "./tasks.js";

/** Operations of `spec/integrations.tsp`; the tasks sending integration events. */
export const integrationsArea = defineArea({
  name: "integrations",
  access: integrationAccess,
  handlers: integrationHandlers,
  routes: integrationAssetRoutes,
  // Integration events go at the webhooks' pace; their payloads name users by their API URLs.
  tasks: ({ fetcher, secretKey }) =>
    integrationEventTasks(
      { fetcher, secretKey, urls: urlsFor(publicUrlFrom(process.env)) },
      webhookSettingsFrom(process.env),
    ),
});
