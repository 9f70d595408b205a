import { type AccessRule, accessRule, pathParameter } from "../area.js";
import type { OrganizationRole } from "../policy.js";
import { specForCaller } from "./store.js";
import type { OpenApiSpecTable } from "./tables.js";

/** The specification a path names, with the caller's role in its organization. */
export interface MemberSpec {
  spec: OpenApiSpecTable;
  role: OrganizationRole;
}

/**
 * The access rule of an operation on the specification `specSlug` of the organization
 * `organizationId`: 404 unless it exists and the caller is a member there (a guest is one), 403
 * naming `action` unless `allows` their standing there.
 */
export function onSpec(
  action: string,
  allows: (standing: MemberSpec) => boolean = () => true,
): AccessRule<MemberSpec> {
  return accessRule(
    "OpenAPI specification",
    action,
    ({ db }, caller, path) =>
      specForCaller(db, {
        organizationId: pathParameter(path, "organizationId"),
        slug: pathParameter(path, "specSlug"),
        userId: caller.user.id,
      }),
    allows,
  );
}
