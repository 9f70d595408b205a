import { defineArea } from "../area.js";

/** Operations of `spec/integrations.tsp`; each moves from `pending` to `handlers` when it is written. */
export const integrationsArea = defineArea({
  name: "integrations",
  pending: [
    "getIntegrationByName",
    "getIntegrationInstallationById",
    "installIntegration",
    "listIntegrationInstallations",
    "listIntegrations",
    "publishIntegration",
    "uninstallIntegration",
    "unpublishIntegration",
    "updateIntegrationInstallation",
  ],
});
