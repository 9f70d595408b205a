import { defineArea } from "../area.js";
import { organizationHandlers } from "./handlers.js";

/** Operations of `spec/organizations.tsp`. */
export const organizationsArea = defineArea({ name: "organizations", handlers: organizationHandlers });
