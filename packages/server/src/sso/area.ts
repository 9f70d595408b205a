import { defineArea } from "../area.js";
import { ssoHandlers } from "./handlers.js";
import { samlRoutes } from "./routes.js";

/** Operations of `spec/sso.tsp` (the organizations of an email domain among them), and the SAML service routes. */
export const ssoArea = defineArea({
  name: "sso",
  handlers: ssoHandlers,
  routes: samlRoutes,
});
