import { defineArea } from "../area.js";
import { translationAccess, translationHandlers } from "./handlers.js";

/** Operations of `spec/translations.tsp`. */
export const translationsArea = defineArea({
  name: "translations",
  access: translationAccess,
  handlers: translationHandlers,
});
