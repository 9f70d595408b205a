import { roleOnRow } from "../access.js";
import type { AccessMap, AreaHandlers } from "../area.js";
import { removeMember } from "../commands/remove-member.js";
import { isSet } from "../db/codecs.js";
import { conflict } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import { onOrganization } from "../organizations/index.js";
import { authorize } from "../policy.js";
import type { Services } from "../services.js";
import { presentSpaceFor } from "../spaces/index.js";
import { listTeamsOfMember, presentTeam } from "../teams/index.js";
import { onMember } from "./access.js";
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

const manages = onMember(MANAGE, ({ callerRole }) => canManageMembers(callerRole));

export const memberAccess = {
  listMembersInOrganizationById: onOrganization(VIEW, ({ role }) => canViewMembers(role)),
  // Any member, guests too, as each sees themself: the handler refuses a guest another member.
  getMemberInOrganizationById: onMember(VIEW),
  updateMemberInOrganizationById: manages,
  // Any member, as each may leave: the handler refuses removing another to all but admins.
  removeMemberFromOrganizationById: onMember(MANAGE),
  updateOrganizationMemberLastSeenAt: onOrganization("record activity in this organization"),
  setUserAsSSOMemberForOrganization: manages,
  // Any member, as each sees their own: the handler refuses another's spaces to all but admins.
  listSpacesForOrganizationMember: onMember("see this member's spaces"),
  listTeamsForOrganizationMember: onMember(VIEW, ({ callerRole }) => canViewMembers(callerRole)),
} satisfies AccessMap;

export function memberHandlers(services: Services): AreaHandlers<typeof memberAccess> {
  const { db, urls, now, transaction } = services;
  /** The member re-read after a change, as the API shows it. */
  const reread = async (
    path: { organizationId: string; userId: string },
    callerId: string,
  ): Promise<MemberRow> => (await existingMember(db, { ...path, callerId })).member;

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
      return ok(presentPage(page, presentMemberFor(urls)));
    },

    async getMemberInOrganizationById({ path, caller }, { callerRole, member }) {
      authorize(path.userId === caller.user.id || canViewMembers(callerRole), VIEW);
      return ok(presentMember(member, urls));
    },

    async updateMemberInOrganizationById({ path, body, caller }) {
      if (body.role !== undefined) {
        const role = body.role;
        await transaction(async (tx) => {
          await lockMemberships(tx, path.organizationId);
          if (role !== "admin" && (await otherAdmins(tx, path.organizationId, path.userId)) === 0)
            throw conflict(LAST_ADMIN, "last_admin");
          await setMemberRole(
            tx,
            { ...services, actorId: caller.user.id },
            { organizationId: path.organizationId, userId: path.userId, role },
          );
        });
      }
      return ok(presentMember(await reread(path, caller.user.id), urls));
    },

    async removeMemberFromOrganizationById({ path, caller }, { callerRole }) {
      authorize(path.userId === caller.user.id || canManageMembers(callerRole), MANAGE);
      await transaction(async (tx) => {
        await lockMemberships(tx, path.organizationId);
        if ((await otherAdmins(tx, path.organizationId, path.userId)) === 0)
          throw conflict(LAST_ADMIN, "last_admin");
        await removeMember(tx, { ...services, actorId: caller.user.id }, path.organizationId, path.userId);
      });
      return noContent();
    },

    async updateOrganizationMemberLastSeenAt({ caller }, { organization }) {
      await touchMember(db, organization.id, caller.user.id, now());
      return ok({});
    },

    async setUserAsSSOMemberForOrganization({ path, caller }, { member }) {
      if (!isSet(member.sso)) {
        if (await inOtherOrganization(db, path.organizationId, path.userId))
          throw conflict(
            "This user belongs to another organization: they cannot become a single sign-on member.",
          );
        await setMemberSso(db, path.organizationId, path.userId);
      }
      return ok(presentMember(await reread(path, caller.user.id), urls));
    },

    async listSpacesForOrganizationMember({ path, query, caller }, { callerRole, member }) {
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

    async listTeamsForOrganizationMember({ path, query, caller }, { callerRole, member }) {
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
