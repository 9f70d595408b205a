import { membershipOfPage } from "../access.js";
import { badRequest, notFound, preconditionFailed } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import { lockMemberships } from "../members/index.js";
import { organizationForCaller, organizationRoleOf } from "../organizations/index.js";
import { authorize } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { canManageInvites } from "./policy.js";
import { presentInvite, presentInviteFor } from "./presenter.js";
import {
  deleteInvite,
  insertInvite,
  inviteByEmail,
  inviteForCaller,
  joinWithRole,
  listInvites,
  setInviteRole,
} from "./store.js";

const MANAGE = "manage the invitations of this organization";
const LINKS_OFF = "Invite links are turned off in this organization.";

export function inviteHandlers(
  services: Services,
): AreaHandlers<
  | "inviteUsersToOrganization"
  | "joinOrganizationWithInvite"
  | "listOrganizationInviteLinks"
  | "createOrganizationInvite"
  | "getOrganizationInviteLink"
  | "updateOrganizationInviteById"
  | "deleteOrganizationInviteById"
> {
  const { db, urls, ids, now } = services;
  /** The invite, for an admin of its organization (404 for others outside it, 403 inside). */
  const managedInvite = async (path: { organizationId: string; inviteId: string }, callerId: string) => {
    const found = await inviteForCaller(db, { ...path, callerId });
    if (found.callerRole === undefined) throw notFound("Invite");
    authorize(canManageInvites(found.callerRole), MANAGE);
    return found;
  };

  return {
    async inviteUsersToOrganization({ path, body, caller }) {
      const { organization, role } = await organizationForCaller(db, path.organizationId, caller.user.id);
      authorize(canManageInvites(role), MANAGE);
      // The contract checked each address; one person is invited once, whatever the case.
      const emails = [...new Set(body.emails.map((email) => email.toLowerCase()))];
      const result = await db.transaction().execute(async (tx) => {
        await lockMemberships(tx, organization.id);
        return inviteByEmail(tx, services, organization.id, emails, {
          role: body.role ?? organization.default_role,
          sso: body.sso ?? false,
        });
      });
      return ok({
        users: result.users,
        invited: result.users.length,
        ...(result.failedSSOEmails.length > 0 && { failedSSOEmails: result.failedSSOEmails }),
      });
    },

    async joinOrganizationWithInvite({ path, caller }) {
      const { invite, callerRole, inviteLinks } = await inviteForCaller(db, {
        ...path,
        callerId: caller.user.id,
      });
      if (!inviteLinks) throw preconditionFailed(LINKS_OFF, "invite_links_disabled");
      await db.transaction().execute(async (tx) => {
        await lockMemberships(tx, invite.organization_id);
        await joinWithRole(tx, invite.organization_id, caller.user.id, invite.role, callerRole, now());
      });
      return { status: 200 as const, body: {} };
    },

    async listOrganizationInviteLinks({ path, query, caller }) {
      const args = { organizationId: path.organizationId, callerId: caller.user.id };
      const page = await listInvites(db, args, query);
      const role = await membershipOfPage(page, () =>
        organizationRoleOf(db, { organizationId: path.organizationId, userId: caller.user.id }),
      );
      authorize(canManageInvites(role), MANAGE);
      return ok(presentPage(page, presentInviteFor(role)));
    },

    async createOrganizationInvite({ path, body, caller }) {
      const { organization, role } = await organizationForCaller(db, path.organizationId, caller.user.id);
      authorize(canManageInvites(role), MANAGE);
      if (organization.invite_links !== 1) throw preconditionFailed(LINKS_OFF, "invite_links_disabled");
      const invite = {
        id: ids.next(),
        organization_id: organization.id,
        role: body.role,
        created_by: caller.user.id,
        created_at: now(),
      };
      await insertInvite(db, invite);
      // An invite carries no `urls`: its Location is given here.
      return {
        status: 201 as const,
        headers: { location: urls.api(`orgs/${organization.id}/link-invites/${invite.id}`) },
        body: presentInvite(invite, role),
      };
    },

    async getOrganizationInviteLink({ path, caller }) {
      // Any member reads a link, to see whether it would give them more (`redundant`).
      const { invite, callerRole } = await inviteForCaller(db, { ...path, callerId: caller.user.id });
      if (callerRole === undefined) throw notFound("Invite");
      return ok(presentInvite(invite, callerRole));
    },

    async updateOrganizationInviteById({ path, body, caller }) {
      const { invite, callerRole } = await managedInvite(path, caller.user.id);
      // Content invites (a `level` on a space or collection) do not exist in Quire.
      if (!("role" in body)) throw badRequest("An organization invite has a `role`, not a `level`.");
      await setInviteRole(db, invite.id, body.role);
      return ok(presentInvite({ ...invite, role: body.role }, callerRole));
    },

    async deleteOrganizationInviteById({ path, caller }) {
      const { invite } = await managedInvite(path, caller.user.id);
      await deleteInvite(db, invite.id);
      return noContent();
    },
  };
}
