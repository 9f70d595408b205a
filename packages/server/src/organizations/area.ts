import { defineArea } from "../area.js";
import { organizationAccess, organizationHandlers } from "./handlers.js";

/** Operations of `spec/organizations.tsp`. */
export const organizationsArea = defineArea({
  name: "organizations",
  access: organizationAccess,
  handlers: organizationHandlers,
});
