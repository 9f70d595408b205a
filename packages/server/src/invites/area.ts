import { defineArea } from "../area.js";
import { inviteAccess, inviteHandlers } from "./handlers.js";
import { inviteRoutes } from "./routes.js";

/** Operations of `spec/invites.tsp`, and the pages invitations lead to. */
export const invitesArea = defineArea({
  name: "invites",
  access: inviteAccess,
  handlers: inviteHandlers,
  routes: inviteRoutes,
});
