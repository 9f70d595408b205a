import { defineArea } from "../area.js";

/** Operations of `spec/custom-fields.tsp`; each moves from `pending` to `handlers` when it is written. */
export const customFieldsArea = defineArea({
  name: "custom-fields",
  pending: [
    "createOrganizationCustomField",
    "deleteOrganizationCustomField",
    "getOrganizationCustomFieldByName",
    "getSpaceCustomFields",
    "listOrganizationCustomFields",
    "updateOrganizationCustomField",
    "updateSpaceCustomFields",
  ],
});
