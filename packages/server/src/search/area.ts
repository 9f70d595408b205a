import { defineArea } from "../area.js";
import { searchHandlers } from "./handlers.js";

/** Operations of `spec/search.tsp`. */
export const searchArea = defineArea({
  name: "search",
  handlers: searchHandlers,
});
