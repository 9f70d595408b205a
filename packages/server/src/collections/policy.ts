import type { Schema } from "@quire/api-types";
import type { Role } from "../db/schema.js";
import { atLeast, perRole } from "../policy.js";

export const collectionPermissions = perRole(
  (role: Role | undefined): Schema<"CollectionPermissions"> => ({
    view: atLeast(role, "read"),
    admin: atLeast(role, "admin"),
    viewInviteLinks: atLeast(role, "admin"),
    create: atLeast(role, "create"),
  }),
);

/** Changing, moving, transferring or deleting a collection. */
export const canManageCollection = (role: Role | undefined) => atLeast(role, "admin");
