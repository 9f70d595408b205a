import { type AccessRule, accessRule, pathParameter } from "../area.js";
import type { OrganizationRole } from "../policy.js";
import { providerForCaller } from "./store.js";
import type { OidcProviderTable } from "./tables.js";

/** The OpenID Connect provider a path names, with the caller's role in its organization. */
export interface MemberProvider {
  provider: OidcProviderTable;
  role: OrganizationRole;
}

/**
 * The access rule of an operation on the OpenID Connect provider `oidcProviderId` of the organization
 * `organizationId`: 404 unless the caller is in the organization and the provider in it, 403 naming
 * `action` unless `allows` their standing there.
 */
export function onOidcProvider(
  action: string,
  allows: (standing: MemberProvider) => boolean = () => true,
): AccessRule<MemberProvider> {
  return accessRule(
    "OpenID Connect provider",
    action,
    async ({ db }, caller, path) => {
      const { provider, callerRole } = await providerForCaller(db, {
        organizationId: pathParameter(path, "organizationId"),
        providerId: pathParameter(path, "oidcProviderId"),
        callerId: caller.user.id,
      });
      return { provider, role: callerRole ?? null };
    },
    allows,
  );
}
