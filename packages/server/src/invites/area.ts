import { defineArea } from "../area.js";
import { inviteAccess, inviteHandlers } from "./handlers.js";

/** Operations of `spec/invites.tsp`. */
export const invitesArea = defineArea({
  name: "invites",
  access: inviteAccess,
  handlers: inviteHandlers,
});
