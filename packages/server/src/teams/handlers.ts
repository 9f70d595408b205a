import { membershipOfPage } from "../access.js";
import { badRequest } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import { containsPattern } from "../members/index.js";
import { organizationForCaller, organizationRoleOf } from "../organizations/index.js";
import { authorize } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { canCreateTeams, canDeleteTeam, canManageTeam, canViewTeams } from "./policy.js";
import { presentTeam, presentTeamFor, presentTeamMemberFor } from "./presenter.js";
import {
  deleteTeam,
  insertTeam,
  listTeamMembers,
  listTeams,
  nonMembers,
  removeTeamMember,
  renameTeam,
  teamForCaller,
  upsertTeamMember,
} from "./store.js";

const VIEW = "see the teams of this organization";
const MANAGE = "manage this team";

export function teamHandlers(
  services: Services,
): AreaHandlers<
  | "listTeamsInOrganizationById"
  | "createOrganizationTeam"
  | "getTeamInOrganizationById"
  | "updateTeamInOrganizationById"
  | "removeTeamFromOrganizationById"
  | "listTeamMembersInOrganizationById"
  | "addMemberToOrganizationTeamById"
  | "deleteMemberFromOrganizationTeamById"
> {
  const { db, urls, ids, now } = services;
  const teamFor = (path: { organizationId: string; teamId: string }, callerId: string) =>
    teamForCaller(db, { ...path, callerId });
  /** The team, once the caller may manage it (403 otherwise). */
  const manageableTeam = async (path: { organizationId: string; teamId: string }, callerId: string) => {
    const found = await teamFor(path, callerId);
    authorize(canViewTeams(found.callerRole), VIEW);
    authorize(canManageTeam(found.callerRole, found.team.caller_team_role), MANAGE);
    return found;
  };

  return {
    async listTeamsInOrganizationById({ path, query, caller }) {
      const args = {
        organizationId: path.organizationId,
        callerId: caller.user.id,
        title: query.title ? containsPattern(query.title) : null,
        owner: query.owner ?? null,
      };
      const page = await listTeams(db, args, query);
      const role = await membershipOfPage(page, () =>
        organizationRoleOf(db, { organizationId: path.organizationId, userId: caller.user.id }),
      );
      authorize(canViewTeams(role), VIEW);
      if (query.owner !== undefined && (await nonMembers(db, path.organizationId, [query.owner])).length > 0)
        throw badRequest("`owner` is not a member of this organization.");
      return ok(presentPage(page, presentTeamFor(role)));
    },

    async createOrganizationTeam({ path, body, caller }) {
      const { organization, role } = await organizationForCaller(db, path.organizationId, caller.user.id);
      authorize(canCreateTeams(role), "create teams in this organization");
      const memberIds = [...new Set(body.members ?? [])];
      const strangers = await nonMembers(db, organization.id, memberIds);
      if (strangers.length > 0)
        throw badRequest(`Not members of this organization: ${strangers.join(", ")}.`);
      const id = ids.next();
      await db
        .transaction()
        .execute((tx) =>
          insertTeam(
            tx,
            { id, organization_id: organization.id, title: body.title, created_at: now() },
            memberIds,
            now(),
          ),
        );
      const { team } = await teamFor({ organizationId: organization.id, teamId: id }, caller.user.id);
      // A team carries no `urls`: its Location is given here.
      return {
        status: 201 as const,
        headers: { location: urls.api(`orgs/${organization.id}/teams/${id}`) },
        body: presentTeam(team, role),
      };
    },

    async getTeamInOrganizationById({ path, caller }) {
      const { team, callerRole } = await teamFor(path, caller.user.id);
      authorize(canViewTeams(callerRole), VIEW);
      return ok(presentTeam(team, callerRole));
    },

    async updateTeamInOrganizationById({ path, body, caller }) {
      const { team, callerRole } = await manageableTeam(path, caller.user.id);
      if (body.title === undefined) return ok(presentTeam(team, callerRole));
      await renameTeam(db, team.id, body.title);
      return ok(presentTeam({ ...team, title: body.title }, callerRole));
    },

    async removeTeamFromOrganizationById({ path, caller }) {
      const { team, callerRole } = await teamFor(path, caller.user.id);
      authorize(canDeleteTeam(callerRole), "delete teams of this organization");
      await deleteTeam(db, team.id);
      return noContent();
    },

    async listTeamMembersInOrganizationById({ path, query, caller }) {
      const { team, callerRole } = await teamFor(path, caller.user.id);
      authorize(canViewTeams(callerRole), VIEW);
      const page = await listTeamMembers(
        db,
        { teamId: team.id, organizationId: team.organization_id },
        query,
      );
      return ok(presentPage(page, presentTeamMemberFor(urls)));
    },

    async addMemberToOrganizationTeamById({ path, body, caller }) {
      const { team } = await manageableTeam(path, caller.user.id);
      if ((await nonMembers(db, path.organizationId, [path.userId])).length > 0)
        throw badRequest("The user is not a member of this organization.");
      await upsertTeamMember(db, team.id, path.userId, body?.role, now());
      return noContent();
    },

    async deleteMemberFromOrganizationTeamById({ path, caller }) {
      const { team } = await manageableTeam(path, caller.user.id);
      await removeTeamMember(db, team.id, path.userId);
      return noContent();
    },
  };
}
