import { type AccessRule, accessRule, pathParameter } from "../area.js";
import type { OrganizationRole } from "../policy.js";
import { canManageTeam, canViewTeams } from "./policy.js";
import { type TeamRow, teamForCaller } from "./store.js";

/** The team a path names, with the caller's role in its organization (theirs in the team is on the row). */
export interface CallerOnTeam {
  team: TeamRow;
  callerRole: OrganizationRole;
}

export const VIEW = "see the teams of this organization";

/**
 * The access rule of an operation on the team `teamId` of the organization `organizationId`: 404
 * unless the caller is in the organization and the team in it, 403 naming `action` unless `allows`
 * the caller's standing there.
 */
export function onTeam(
  action: string,
  allows: (standing: CallerOnTeam) => boolean = () => true,
): AccessRule<CallerOnTeam> {
  return accessRule(
    "team",
    action,
    ({ db }, caller, path) =>
      teamForCaller(db, {
        organizationId: pathParameter(path, "organizationId"),
        teamId: pathParameter(path, "teamId"),
        callerId: caller.user.id,
      }),
    allows,
  );
}

/** Seeing a team: every member of its organization but guests. */
export const seesTeam = onTeam(VIEW, ({ callerRole }) => canViewTeams(callerRole));

/**
 * Managing a team (its title, its members): organization admins and the team's owners, once they
 * see the team, so that a guest is refused as one who sees no team.
 */
export const managesTeam: AccessRule<CallerOnTeam> = accessRule(
  "team",
  "manage this team",
  async (services, caller, path) => seesTeam.standing(services, caller, path),
  ({ callerRole, team }) => canManageTeam(callerRole, team.caller_team_role),
);
