import { defineArea } from "../area.js";
import { customFieldHandlers } from "./handlers.js";

/** Operations of `spec/custom-fields.tsp`. */
export const customFieldsArea = defineArea({ name: "custom-fields", handlers: customFieldHandlers });
