import { defineArea } from "../area.js";

/** Operations of `spec/sso.tsp`; each moves from `pending` to `handlers` when it is written. */
export const ssoArea = defineArea({
  name: "sso",
  pending: [
    "createOrganizationSAMLProvider",
    "deleteOrganizationSAMLProvider",
    "getOrganizationSAMLProviderById",
    "listSAMLProvidersInOrganizationById",
    "listSSOProviderLoginsInOrganization",
    "updateOrganizationSAMLProvider",
  ],
});
