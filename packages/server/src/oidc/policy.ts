import { atLeast, type Membership } from "../policy.js";

/** As for SAML providers: only organization admins set up how members sign in. */
export const canManageOidc = (role: Membership) => atLeast(role, "admin");
