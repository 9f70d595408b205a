import type { Schema } from "@quire/api-types";
import type { Role } from "../db/schema.js";
import { atLeast, perRole } from "../policy.js";

export const spacePermissions = perRole(
  (role: Role | undefined): Schema<"SpacePermissions"> => ({
    view: atLeast(role, "read"),
    access: atLeast(role, "read"),
    admin: atLeast(role, "admin"),
    viewInviteLinks: atLeast(role, "admin"),
    edit: atLeast(role, "edit"),
    triggerGitSync: atLeast(role, "admin"),
    comment: atLeast(role, "comment"),
    merge: atLeast(role, "review"),
    review: atLeast(role, "review"),
  }),
);

/** Changing settings, deleting, restoring, moving or transferring a space. */
export const canManageSpace = (role: Role) => atLeast(role, "admin");
