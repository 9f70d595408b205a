import { type AccessRule, accessRule, pathParameter } from "../area.js";
import { type MemberOrganization, organizationForCaller } from "./store.js";

/**
 * The access rule of an operation on the organization of path parameter `organizationId`: 404 unless
 * the caller is a member (a guest is one), 403 naming `action` unless `allows` their standing there.
 */
export function onOrganization(
  action: string,
  allows: (standing: MemberOrganization) => boolean = () => true,
): AccessRule<MemberOrganization> {
  return accessRule(
    "organization",
    action,
    ({ db }, caller, path) =>
      organizationForCaller(db, pathParameter(path, "organizationId"), caller.user.id),
    allows,
  );
}
