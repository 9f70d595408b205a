import { type AccessRule, accessRule, pathParameter } from "../area.js";
import { customFieldForCaller, type MemberCustomField } from "./store.js";

/**
 * The access rule of an operation on the custom field `fieldName` of the organization
 * `organizationId`: 404 unless it exists and the caller is a member there (a guest is one), 403
 * naming `action` unless `allows` their standing there.
 */
export function onCustomField(
  action: string,
  allows: (standing: MemberCustomField) => boolean = () => true,
): AccessRule<MemberCustomField> {
  return accessRule(
    "custom field",
    action,
    ({ db }, caller, path) =>
      customFieldForCaller(db, {
        organizationId: pathParameter(path, "organizationId"),
        name: pathParameter(path, "fieldName"),
        userId: caller.user.id,
      }),
    allows,
  );
}
