import { defineArea } from "../area.js";
import { spaceContentAccess, spaceContentHandlers } from "./handlers.js";

/** Operations of `spec/space-content.tsp`; each moves from `pending` to `handlers` when it is written. */
export const spaceContentArea = defineArea({
  name: "space-content",
  access: spaceContentAccess,
  handlers: spaceContentHandlers,
});
