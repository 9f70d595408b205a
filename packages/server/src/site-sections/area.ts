import { defineArea } from "../area.js";
import { siteSectionHandlers } from "./handlers.js";

/** Operations of `spec/site-sections.tsp`. */
export const siteSectionsArea = defineArea({ name: "site-sections", handlers: siteSectionHandlers });
