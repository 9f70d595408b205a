import { type AccessMap, type AreaHandlers, anyCaller } from "../area.js";
import { isSet } from "../db/codecs.js";
import { badRequest, preconditionFailed } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import { lockMemberships } from "../members/index.js";
import { onOrganization } from "../organizations/index.js";
import type { Services } from "../services.js";
import { onInvite } from "./access.js";
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

const managesInvites = onOrganization(MANAGE, ({ role }) => canManageInvites(role));
const managesInvite = onInvite(MANAGE, ({ role }) => canManageInvites(role));

export const inviteAccess = {
  inviteUsersToOrganization: managesInvites,
  // The caller joins an organization they are not yet a member of: the invite is their access.
  joinOrganizationWithInvite: anyCaller,
  listOrganizationInviteLinks: managesInvites,
  createOrganizationInvite: managesInvites,
  // Any member reads a link, to see whether it would give them more (`redundant`).
  getOrganizationInviteLink: onInvite("see this invite"),
  updateOrganizationInviteById: managesInvite,
  deleteOrganizationInviteById: managesInvite,
} satisfies AccessMap;

export function inviteHandlers(services: Services): AreaHandlers<typeof inviteAccess> {
  const { db, urls, ids, now, transaction } = services;

  return {
    async inviteUsersToOrganization({ body, caller }, { organization }) {
      // The contract checked each address; one person is invited once, whatever the case.
      const emails = [...new Set(body.emails.map((email) => email.toLowerCase()))];
      const result = await transaction(async (tx) => {
        await lockMemberships(tx, organization.id);
        return inviteByEmail(tx, { ...services, actorId: caller.user.id }, organization.id, emails, {
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
      await transaction(async (tx) => {
        await lockMemberships(tx, invite.organization_id);
        await joinWithRole(
          tx,
          { ...services, actorId: caller.user.id },
          { organizationId: invite.organization_id, userId: caller.user.id, role: invite.role },
          callerRole,
        );
      });
      return { status: 200 as const, body: {} };
    },

    async listOrganizationInviteLinks({ path, query, caller }, { role }) {
      const args = { organizationId: path.organizationId, callerId: caller.user.id };
      const page = await listInvites(db, args, query);
      return ok(presentPage(page, presentInviteFor(role)));
    },

    async createOrganizationInvite({ body, caller }, { organization, role }) {
      if (!isSet(organization.invite_links)) throw preconditionFailed(LINKS_OFF, "invite_links_disabled");
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

    async getOrganizationInviteLink(_input, { invite, role }) {
      return ok(presentInvite(invite, role));
    },

    async updateOrganizationInviteById({ body }, { invite, role }) {
      // Content invites (a `level` on a space or collection) do not exist in Quire.
      if (!("role" in body)) throw badRequest("An organization invite has a `role`, not a `level`.");
      await setInviteRole(db, invite.id, body.role);
      return ok(presentInvite({ ...invite, role: body.role }, role));
    },

    async deleteOrganizationInviteById(_input, { invite }) {
      await deleteInvite(db, invite.id);
      return noContent();
    },
  };
}
