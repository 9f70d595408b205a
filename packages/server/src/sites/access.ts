import { type AccessRule, accessRule, pathParameter } from "../area.js";
import { canChangeSiteStructure, canManageSiteSettings } from "./policy.js";
import { type MemberSite, siteForCaller } from "./store.js";

/**
 * The access rule of an operation on the site of path parameters `organizationId` and `siteId`: 404
 * unless the site is in that organization and the caller a member of it, 403 to a guest (who reads no
 * site), and 403 naming `action` unless `allows` their standing (the site and their organization role).
 */
export function onSite(
  action: string,
  allows: (standing: MemberSite) => boolean = () => true,
): AccessRule<MemberSite> {
  return accessRule(
    "site",
    action,
    ({ db }, caller, path) =>
      siteForCaller(
        db,
        { organizationId: pathParameter(path, "organizationId"), siteId: pathParameter(path, "siteId") },
        caller.user.id,
      ),
    allows,
  );
}

/** An operation that reads the site: any member but a guest. */
export const readsSite = onSite("read this site");

/** An operation that arranges the site (sections, groups, site spaces): creators and above. */
export const arrangesSite = onSite("change the structure of this site", ({ role }) =>
  canChangeSiteStructure(role),
);

/** An operation on the site's settings, refused with 403 naming `action` but to administrators. */
export const administersSite = (action: string) => onSite(action, ({ role }) => canManageSiteSettings(role));
