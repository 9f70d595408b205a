import type { Schema } from "@quire/api-types";
import { atLeast, type OrganizationRole } from "../policy.js";
import type { TeamMemberRole } from "./tables.js";

/** Teams are managed by the organization's admins, and a team's members also by its owners. */
export const canManageTeam = (role: OrganizationRole, teamRole: TeamMemberRole | null) =>
  atLeast(role, "admin") || teamRole === "owner";
export const canCreateTeams = (role: OrganizationRole) => atLeast(role, "admin");
export const canDeleteTeam = (role: OrganizationRole) => atLeast(role, "admin");
/** Guests never see who else is in the organization, teams included. */
export const canViewTeams = (role: OrganizationRole) => role !== null;

export const teamPermissions = (
  role: OrganizationRole,
  teamRole: TeamMemberRole | null,
): Schema<"TeamPermissions"> => ({ admin: canManageTeam(role, teamRole), view: canViewTeams(role) });
