import type { Schema } from "@quire/api-types";
import type { Role, SpaceTable } from "../db/schema.js";
import { conflict } from "../http/errors.js";
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
    // Integrations are installed by the organization's admins, onto its spaces among others.
    installIntegration: atLeast(role, "admin"),
  }),
);

/** Changing settings, deleting, restoring, moving or transferring a space. */
export const canManageSpace = (role: Role) => atLeast(role, "admin");

/** A deleted space takes no writes (its content, comments, change requests, fields) until restored. */
export function assertSpaceNotDeleted(space: Pick<SpaceTable, "deleted_at">): void {
  if (space.deleted_at !== null) throw conflict("The space is deleted; restore it first.", "space_deleted");
}
