import { defineArea } from "../area.js";
import { translationHandlers } from "./handlers.js";

/** Operations of `spec/translations.tsp`. */
export const translationsArea = defineArea({ name: "translations", handlers: translationHandlers });
