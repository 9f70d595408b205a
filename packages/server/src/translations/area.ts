import { defineArea } from "../area.js";

/** Operations of `spec/translations.tsp`; each moves from `pending` to `handlers` when it is written. */
export const translationsArea = defineArea({
  name: "translations",
  pending: [
    "createTranslation",
    "deleteTranslation",
    "getTranslation",
    "listTranslations",
    "updateTranslation",
  ],
});
