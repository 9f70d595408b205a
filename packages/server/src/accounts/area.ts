import { defineArea } from "../area.js";
import { ssoLoginsForEmail } from "../commands/sso-sign-in.js";
import { accountAccess, accountHandlers } from "./handlers.js";
import { accountRoutes } from "./routes.js";

/** Operations of `spec/accounts.tsp` (sessions, password), and the pages where people sign in. */
export const accountsArea = defineArea({
  name: "accounts",
  access: accountAccess,
  handlers: accountHandlers,
  routes: (router, services) => accountRoutes(router, services, ssoLoginsForEmail),
});
