import { membershipOfPage, roleOnRow } from "../access.js";
import { removeMember } from "../commands/remove-member.js";
import { conflict, notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import { organizationRoleOf } from "../organizations/index.js";
import { authorize } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { presentSpaceFor } from "../spaces/index.js";
import { listTeamsOfMember, presentTeam } from "../teams/index.js";
import { canManageMembers, canViewMemberSpaces, canViewMembers } from "./policy.js";
import { presentMember, presentMemberFor } from "./presenter.js";
import {
  containsPattern,
  existingMember,
  inOtherOrganization,
  listMembers,
  listSpacesOfMember,
  lockMemberships,
  type MemberRow,
  otherAdmins,
  setMemberRole,
  setMemberSso,
  touchMember,
} from "./store.js";

const VIEW = "see the members of this organization";
const MANAGE = "manage the members of this organization";
const LAST_ADMIN = "An organization needs at least one admin: make another member admin first.";

export function memberHandlers(
  services: Services,
): AreaHandlers<
  | "listMembersInOrganizationById"
  | "getMemberInOrganizationById"
  | "updateMemberInOrganizationById"
  | "removeMemberFromOrganizationById"
  | "updateOrganizationMemberLastSeenAt"
  | "setUserAsSSOMemberForOrganization"
  | "listSpacesForOrganizationMember"
  | "listTeamsForOrganizationMember"
> {
  const { db, urls, now } = services;
  const lookup = (path: { organizationId: string; userId: string }, callerId: string) =>
    existingMember(db, { ...path, callerId });
  /** The member re-read after a change, as the API shows it. */
  const reread = async (
    path: { organizationId: string; userId: string },
    callerId: string,
  ): Promise<MemberRow> => (await lookup(path, callerId)).member;

  return {
    async listMembersInOrganizationById({ path, query, caller }) {
      const args = {
        organizationId: path.organizationId,
        callerId: caller.user.id,
        role: query.role ?? null,
        search: query.search ? containsPattern(query.search) : null,
      };
      const page = await listMembers(query.sort ?? "joinedAt", (query.order ?? "desc") === "desc")(
        db,
        args,
        query,
      );
      const role = await membershipOfPage(page, () =>
        organizationRoleOf(db, { organizationId: path.organizationId, userId: caller.user.id }),
      );
      authorize(canViewMembers(role), VIEW);
      return ok(presentPage(page, presentMemberFor(urls)));
    },

    async getMemberInOrganizationById({ path, caller }) {
      const self = path.userId === caller.user.id;
      const { callerRole, member } = await lookup(path, caller.user.id);
      authorize(self || canViewMembers(callerRole), VIEW);
      return ok(presentMember(member, urls));
    },

    async updateMemberInOrganizationById({ path, body, caller }) {
      const { callerRole } = await lookup(path, caller.user.id);
      authorize(canManageMembers(callerRole), MANAGE);
      if (body.role !== undefined) {
        const role = body.role;
        await db.transaction().execute(async (tx) => {
          await lockMemberships(tx, path.organizationId);
          if (role !== "admin" && (await otherAdmins(tx, path.organizationId, path.userId)) === 0)
            throw conflict(LAST_ADMIN, "last_admin");
          await setMemberRole(tx, path.organizationId, path.userId, role);
        });
      }
      return ok(presentMember(await reread(path, caller.user.id), urls));
    },

    async removeMemberFromOrganizationById({ path, caller }) {
      const { callerRole } = await lookup(path, caller.user.id);
      authorize(path.userId === caller.user.id || canManageMembers(callerRole), MANAGE);
      await db.transaction().execute(async (tx) => {
        await lockMemberships(tx, path.organizationId);
        if ((await otherAdmins(tx, path.organizationId, path.userId)) === 0)
          throw conflict(LAST_ADMIN, "last_admin");
        await removeMember(tx, path.organizationId, path.userId);
      });
      return noContent();
    },

    async updateOrganizationMemberLastSeenAt({ path, caller }) {
      // Any member, guests too: 404 for everyone else.
      if (!(await touchMember(db, path.organizationId, caller.user.id, now())))
        throw notFound("Organization");
      return ok({});
    },

    async setUserAsSSOMemberForOrganization({ path, caller }) {
      const { callerRole, member } = await lookup(path, caller.user.id);
      authorize(canManageMembers(callerRole), MANAGE);
      if (member.sso !== 1) {
        if (await inOtherOrganization(db, path.organizationId, path.userId))
          throw conflict(
            "This user belongs to another organization: they cannot become a single sign-on member.",
          );
        await setMemberSso(db, path.organizationId, path.userId);
      }
      return ok(presentMember(await reread(path, caller.user.id), urls));
    },

    async listSpacesForOrganizationMember({ path, query, caller }) {
      const { callerRole, member } = await lookup(path, caller.user.id);
      authorize(canViewMemberSpaces(callerRole, path.userId === caller.user.id), "see this member's spaces");
      const page = await listSpacesOfMember(query.order ?? "desc")(
        db,
        { organizationId: path.organizationId, userId: member.user_id, callerId: caller.user.id },
        query,
      );
      const presentSpace = presentSpaceFor(callerRole, urls);
      const memberRole = member.role;
      return ok(
        presentPage(page, (row) => ({
          // The listing keeps only spaces the member reaches, so the member has a role on each.
          permission:
            roleOnRow(memberRole, { default_level: row.default_level, caller_grant: row.member_grant }) ??
            "read",
          space: presentSpace(row),
        })),
      );
    },

    async listTeamsForOrganizationMember({ path, query, caller }) {
      const { callerRole, member } = await lookup(path, caller.user.id);
      authorize(canViewMembers(callerRole), VIEW);
      const page = await listTeamsOfMember(
        db,
        {
          organizationId: path.organizationId,
          userId: member.user_id,
          callerId: caller.user.id,
          title: query.title ? containsPattern(query.title) : null,
        },
        query,
      );
      return ok(
        presentPage(page, (row) => ({
          team: presentTeam(row, callerRole),
          member: { role: row.member_role },
        })),
      );
    },
  };
}
