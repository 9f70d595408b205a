import { defineArea } from "../area.js";
import { openApiSpecAccess, openApiSpecHandlers } from "./handlers.js";
import { openApiSpecTasks } from "./processing.js";

/** Operations of `spec/openapi-specs.tsp`. */
export const openapiSpecsArea = defineArea({
  name: "openapi-specs",
  access: openApiSpecAccess,
  handlers: openApiSpecHandlers,
  tasks: openApiSpecTasks,
});
