import { defineArea } from "../area.js";
import { openApiSpecHandlers } from "./handlers.js";

/** Operations of `spec/openapi-specs.tsp`. */
export const openapiSpecsArea = defineArea({ name: "openapi-specs", handlers: openApiSpecHandlers });
