import { defineArea } from "../area.js";
import { searchAccess, searchHandlers } from "./handlers.js";

/** Operations of `spec/search.tsp`. */
export const searchArea = defineArea({
  name: "search",
  access: searchAccess,
  handlers: searchHandlers,
});
