import { defineArea } from "../area.js";

/** Operations of `spec/openapi-specs.tsp`; each moves from `pending` to `handlers` when it is written. */
export const openapiSpecsArea = defineArea({
  name: "openapi-specs",
  pending: [
    "createOpenAPISpec",
    "createOrUpdateOpenAPISpecBySlug",
    "deleteOpenAPISpecBySlug",
    "getOpenAPISpecBySlug",
    "listOpenAPISpecs",
  ],
});
