import { type AccessRule, accessRule, pathParameter } from "../area.js";
import { collectionForCaller, type MemberCollection } from "./store.js";

/**
 * The access rule of an operation on the collection of path parameter `collectionId`: 404 unless the
 * caller has a role on it, 403 naming `action` unless `allows` their standing there.
 */
export function onCollection(
  action: string,
  allows: (standing: MemberCollection) => boolean = () => true,
): AccessRule<MemberCollection> {
  return accessRule(
    "collection",
    action,
    ({ db }, caller, path) => collectionForCaller(db, pathParameter(path, "collectionId"), caller.user.id),
    allows,
  );
}
