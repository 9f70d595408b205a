import { defineArea } from "../area.js";
import { webhooksAccess, webhooksHandlers } from "./handlers.js";
import { webhookSettingsFrom } from "./settings.js";
import { webhooksTasks } from "./tasks.js";

/** Operations of `spec/webhooks.tsp`: an organization's events sent to URLs of its choice. */
export const webhooksArea = defineArea({
  name: "webhooks",
  access: webhooksAccess,
  handlers: (services) => webhooksHandlers(services, webhookSettingsFrom(process.env)),
  tasks: ({ fetcher, secretKey }) => webhooksTasks({ fetcher, secretKey }, webhookSettingsFrom(process.env)),
});
