import { defineArea } from "../area.js";

/** Operations of `spec/teams.tsp`; each moves from `pending` to `handlers` when it is written. */
export const teamsArea = defineArea({
  name: "teams",
  pending: [
    "addMemberToOrganizationTeamById",
    "createOrganizationTeam",
    "deleteMemberFromOrganizationTeamById",
    "getTeamInOrganizationById",
    "listTeamMembersInOrganizationById",
    "listTeamsInOrganizationById",
    "removeTeamFromOrganizationById",
    "updateTeamInOrganizationById",
  ],
});
