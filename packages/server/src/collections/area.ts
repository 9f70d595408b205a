import { defineArea } from "../area.js";
import { collectionAccess, collectionHandlers } from "./handlers.js";

/** Operations of `spec/collections.tsp`. */
export const collectionsArea = defineArea({
  name: "collections",
  access: collectionAccess,
  handlers: collectionHandlers,
});
