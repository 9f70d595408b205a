import { defineArea } from "../area.js";
import { collectionHandlers } from "./handlers.js";

/** Operations of `spec/collections.tsp`. */
export const collectionsArea = defineArea({ name: "collections", handlers: collectionHandlers });
