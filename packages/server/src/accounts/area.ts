import { defineArea } from "../area.js";
import { accountAccess, accountHandlers } from "./handlers.js";
import { accountRoutes } from "./routes.js";

/** Operations of `spec/accounts.tsp` (sessions, password), and the pages where people sign in. */
export const accountsArea = defineArea({
  name: "accounts",
  access: accountAccess,
  handlers: accountHandlers,
  routes: accountRoutes,
});
