import { defineArea } from "../area.js";
import { memberHandlers } from "./handlers.js";

/** Operations of `spec/members.tsp`. */
export const membersArea = defineArea({
  name: "members",
  handlers: memberHandlers,
});
