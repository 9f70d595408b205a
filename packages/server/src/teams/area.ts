import { defineArea } from "../area.js";
import { teamHandlers } from "./handlers.js";

/** Operations of `spec/teams.tsp`. */
export const teamsArea = defineArea({
  name: "teams",
  handlers: teamHandlers,
});
