import { defineArea } from "../area.js";
import { permissionAccess, permissionHandlers } from "./handlers.js";

/** Operations of `spec/permissions.tsp`: roles of users and teams on one space or collection. */
export const permissionsArea = defineArea({
  name: "permissions",
  access: permissionAccess,
  handlers: permissionHandlers,
});
