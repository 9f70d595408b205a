import { defineArea } from "../area.js";

/** Operations of `spec/webhooks.tsp`. */
export const webhooksArea = defineArea({
  name: "webhooks",
  pending: [
    "listWebhooks",
    "createWebhook",
    "getWebhook",
    "updateWebhook",
    "deleteWebhook",
    "testWebhook",
    "listWebhookDeliveries",
    "redeliverWebhookDelivery",
  ],
});
