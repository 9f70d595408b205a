import { defineArea } from "../area.js";

/** Operations of `spec/members.tsp`; each moves from `pending` to `handlers` when it is written. */
export const membersArea = defineArea({
  name: "members",
  pending: [
    "getMemberInOrganizationById",
    "listMembersInOrganizationById",
    "listSpacesForOrganizationMember",
    "listTeamsForOrganizationMember",
    "removeMemberFromOrganizationById",
    "setUserAsSSOMemberForOrganization",
    "updateMemberInOrganizationById",
    "updateOrganizationMemberLastSeenAt",
  ],
});
