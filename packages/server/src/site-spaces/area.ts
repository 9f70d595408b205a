import { defineArea } from "../area.js";
import { siteSpaceHandlers } from "./handlers.js";

/** Operations of `spec/site-spaces.tsp`. */
export const siteSpacesArea = defineArea({ name: "site-spaces", handlers: siteSpaceHandlers });
