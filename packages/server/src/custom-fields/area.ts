import { defineArea } from "../area.js";
import { customFieldAccess, customFieldHandlers } from "./handlers.js";

/** Operations of `spec/custom-fields.tsp`. */
export const customFieldsArea = defineArea({
  name: "custom-fields",
  access: customFieldAccess,
  handlers: customFieldHandlers,
});
