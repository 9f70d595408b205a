import { defineArea } from "../area.js";
import { memberAccess, memberHandlers } from "./handlers.js";

/** Operations of `spec/members.tsp`. */
export const membersArea = defineArea({
  name: "members",
  access: memberAccess,
  handlers: memberHandlers,
});
