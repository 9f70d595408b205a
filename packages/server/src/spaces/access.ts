import { type AccessRule, accessRule, pathParameter } from "../area.js";
import { type MemberSpace, spaceForCaller } from "./store.js";

/**
 * The access rule of an operation on the space of path parameter `spaceId`: 404 unless the caller has
 * a role on it, 403 naming `action` unless `allows` their standing there (the space, their role on it
 * and in its organization).
 */
export function onSpace(
  action: string,
  allows: (standing: MemberSpace) => boolean = () => true,
): AccessRule<MemberSpace> {
  return accessRule(
    "space",
    action,
    ({ db, clock }, caller, path) =>
      spaceForCaller(db, pathParameter(path, "spaceId"), caller.user.id, clock.now()),
    allows,
  );
}
