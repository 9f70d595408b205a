import { defineArea } from "../area.js";
import { userAccess, userHandlers } from "./handlers.js";

/** Operations of `spec/users.tsp`. */
export const usersArea = defineArea({ name: "users", access: userAccess, handlers: userHandlers });
