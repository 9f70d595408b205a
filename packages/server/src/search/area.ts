import { defineArea } from "../area.js";

/** Operations of `spec/search.tsp`; each moves from `pending` to `handlers` when it is written. */
export const searchArea = defineArea({
  name: "search",
  pending: ["searchOrganizationContent"],
});
