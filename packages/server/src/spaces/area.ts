import { defineArea } from "../area.js";
import { spaceHandlers } from "./handlers.js";
import { spaceTasks } from "./tasks.js";

/** Operations of `spec/spaces.tsp`. */
export const spacesArea = defineArea({ name: "spaces", handlers: spaceHandlers, tasks: () => spaceTasks });
