import { defineArea } from "../area.js";
import { oidcAccess, oidcHandlers } from "./handlers.js";

/** Operations of `spec/oidc.tsp`: the OpenID Connect providers of organizations. */
export const oidcArea = defineArea({
  name: "oidc",
  access: oidcAccess,
  handlers: oidcHandlers,
});
