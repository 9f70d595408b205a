import { defineArea } from "../area.js";
import { userHandlers } from "./handlers.js";

/** Operations of `spec/users.tsp`. */
export const usersArea = defineArea({ name: "users", handlers: userHandlers });
