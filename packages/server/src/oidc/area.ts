import { defineArea } from "../area.js";
import { ssoMember } from "../commands/sso-sign-in.js";
import { oidcAccess, oidcHandlers } from "./handlers.js";
import { oidcRoutes } from "./routes.js";

/** Operations of `spec/oidc.tsp` (the OpenID Connect providers of organizations), and their sign-in routes. */
export const oidcArea = defineArea({
  name: "oidc",
  access: oidcAccess,
  handlers: oidcHandlers,
  routes: (router, services) => oidcRoutes(router, services, ssoMember),
});
