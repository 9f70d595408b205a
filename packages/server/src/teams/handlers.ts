import type { AccessMap, AreaHandlers } from "../area.js";
import type { Caller } from "../auth/caller.js";
import type { Transaction } from "../db/database.js";
import { type EventData, recordEvent } from "../events/record.js";
import { badRequest } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import { containsPattern } from "../members/index.js";
import { onOrganization } from "../organizations/index.js";
import type { Services } from "../services.js";
import { managesTeam, onTeam, seesTeam, VIEW } from "./access.js";
import { canCreateTeams, canDeleteTeam, canViewTeams } from "./policy.js";
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
import type { TeamTable } from "./tables.js";

export const teamAccess = {
  listTeamsInOrganizationById: onOrganization(VIEW, ({ role }) => canViewTeams(role)),
  createOrganizationTeam: onOrganization("create teams in this organization", ({ role }) =>
    canCreateTeams(role),
  ),
  getTeamInOrganizationById: seesTeam,
  updateTeamInOrganizationById: managesTeam,
  removeTeamFromOrganizationById: onTeam("delete teams of this organization", ({ callerRole }) =>
    canDeleteTeam(callerRole),
  ),
  listTeamMembersInOrganizationById: seesTeam,
  addMemberToOrganizationTeamById: managesTeam,
  deleteMemberFromOrganizationTeamById: managesTeam,
} satisfies AccessMap;

export function teamHandlers(services: Services): AreaHandlers<typeof teamAccess> {
  const { db, urls, ids, now, transaction } = services;

  /** Records an event about `team` in its organization, caused by `caller`. */
  const recordTeamEvent = <
    T extends "team_created" | "team_deleted" | "team_member_added" | "team_member_removed",
  >(
    tx: Transaction,
    caller: Caller,
    type: T,
    team: Pick<TeamTable, "id" | "organization_id" | "title">,
    extra: Omit<EventData<T>, "team" | "title">,
  ) =>
    recordEvent(tx, services, {
      organizationId: team.organization_id,
      type,
      actorId: caller.user.id,
      data: { team: team.id, title: team.title, ...extra } as EventData<T>,
    });

  return {
    async listTeamsInOrganizationById({ path, query, caller }, { role }) {
      const args = {
        organizationId: path.organizationId,
        callerId: caller.user.id,
        title: query.title ? containsPattern(query.title) : null,
        owner: query.owner ?? null,
      };
      const page = await listTeams(db, args, query);
      if (query.owner !== undefined && (await nonMembers(db, path.organizationId, [query.owner])).length > 0)
        throw badRequest("`owner` is not a member of this organization.");
      return ok(presentPage(page, presentTeamFor(role)));
    },

    async createOrganizationTeam({ body, caller }, { organization, role }) {
      const memberIds = [...new Set(body.members ?? [])];
      const strangers = await nonMembers(db, organization.id, memberIds);
      if (strangers.length > 0)
        throw badRequest(`Not members of this organization: ${strangers.join(", ")}.`);
      const id = ids.next();
      await transaction(async (tx) => {
        const team = { id, organization_id: organization.id, title: body.title, created_at: now() };
        await insertTeam(tx, team, memberIds, now());
        await recordTeamEvent(tx, caller, "team_created", team, {});
      });
      const { team } = await teamForCaller(db, {
        organizationId: organization.id,
        teamId: id,
        callerId: caller.user.id,
      });
      // A team carries no `urls`: its Location is given here.
      return {
        status: 201 as const,
        headers: { location: urls.api(`orgs/${organization.id}/teams/${id}`) },
        body: presentTeam(team, role),
      };
    },

    async getTeamInOrganizationById(_input, { team, callerRole }) {
      return ok(presentTeam(team, callerRole));
    },

    async updateTeamInOrganizationById({ body }, { team, callerRole }) {
      if (body.title === undefined) return ok(presentTeam(team, callerRole));
      await renameTeam(db, team.id, body.title);
      return ok(presentTeam({ ...team, title: body.title }, callerRole));
    },

    async removeTeamFromOrganizationById({ caller }, { team }) {
      await transaction(async (tx) => {
        await deleteTeam(tx, team.id);
        await recordTeamEvent(tx, caller, "team_deleted", team, {});
      });
      return noContent();
    },

    async listTeamMembersInOrganizationById({ query }, { team }) {
      const page = await listTeamMembers(
        db,
        { teamId: team.id, organizationId: team.organization_id },
        query,
      );
      return ok(presentPage(page, presentTeamMemberFor(urls)));
    },

    async addMemberToOrganizationTeamById({ path, body, caller }, { team }) {
      if ((await nonMembers(db, path.organizationId, [path.userId])).length > 0)
        throw badRequest("The user is not a member of this organization.");
      await transaction(async (tx) => {
        if (await upsertTeamMember(tx, team.id, path.userId, body?.role, now()))
          await recordTeamEvent(tx, caller, "team_member_added", team, { user: path.userId });
      });
      return noContent();
    },

    async deleteMemberFromOrganizationTeamById({ path, caller }, { team }) {
      await transaction(async (tx) => {
        if (await removeTeamMember(tx, team.id, path.userId))
          await recordTeamEvent(tx, caller, "team_member_removed", team, { user: path.userId });
      });
      return noContent();
    },
  };
}
