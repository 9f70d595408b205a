import { defineArea } from "../area.js";

/** Operations of `spec/invites.tsp`; each moves from `pending` to `handlers` when it is written. */
export const invitesArea = defineArea({
  name: "invites",
  pending: [
    "createOrganizationInvite",
    "deleteOrganizationInviteById",
    "getOrganizationInviteLink",
    "inviteUsersToOrganization",
    "joinOrganizationWithInvite",
    "listOrganizationInviteLinks",
    "updateOrganizationInviteById",
  ],
});
