import { defineArea } from "../area.js";
import { teamAccess, teamHandlers } from "./handlers.js";

/** Operations of `spec/teams.tsp`. */
export const teamsArea = defineArea({
  name: "teams",
  access: teamAccess,
  handlers: teamHandlers,
});
