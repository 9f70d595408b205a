import { defineArea } from "../area.js";
import { ssoMember } from "../commands/sso-sign-in.js";
import { ssoAccess, ssoHandlers } from "./handlers.js";
import { samlRoutes } from "./routes.js";

/** Operations of `spec/sso.tsp` (the organizations of an email domain among them), and the SAML service routes. */
export const ssoArea = defineArea({
  name: "sso",
  access: ssoAccess,
  handlers: ssoHandlers,
  routes: (router, services) => samlRoutes(router, services, ssoMember),
});
