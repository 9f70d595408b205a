import { defineArea } from "../area.js";
import { webhooksAccess, webhooksHandlers } from "./handlers.js";
import { webhooksTasks } from "./tasks.js";

/** Operations of `spec/webhooks.tsp`: an organization's events sent to URLs of its choice. */
export const webhooksArea = defineArea({
  name: "webhooks",
  access: webhooksAccess,
  handlers: (services) => webhooksHandlers(services, services.eventDelivery),
  tasks: ({ fetcher, secretKey, eventDelivery }) => webhooksTasks({ fetcher, secretKey }, eventDelivery),
});
