import { defineArea } from "../area.js";
import { inviteHandlers } from "./handlers.js";

/** Operations of `spec/invites.tsp`. */
export const invitesArea = defineArea({
  name: "invites",
  handlers: inviteHandlers,
});
