import { defineArea } from "../area.js";
import { spaceAccess, spaceHandlers } from "./handlers.js";
import { spaceTasks } from "./tasks.js";

/** Operations of `spec/spaces.tsp`. */
export const spacesArea = defineArea({
  name: "spaces",
  access: spaceAccess,
  handlers: spaceHandlers,
  tasks: () => spaceTasks,
});
