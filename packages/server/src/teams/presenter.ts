import type { Schema } from "@quire/api-types";
import { type MemberRow, presentMember } from "../members/index.js";
import type { OrganizationRole } from "../policy.js";
import type { Urls } from "../urls.js";
import { teamPermissions } from "./policy.js";
import type { TeamRow } from "./store.js";
import type { TeamMemberRole } from "./tables.js";

export function presentTeam(row: TeamRow, callerRole: OrganizationRole): Schema<"Team"> {
  return {
    object: "team",
    id: row.id,
    title: row.title,
    members: Number(row.member_count),
    spaces: Number(row.space_count),
    createdAt: row.created_at,
    permissions: teamPermissions(callerRole, row.caller_team_role),
  };
}

export const presentTeamFor = (callerRole: OrganizationRole) => (row: TeamRow) =>
  presentTeam(row, callerRole);

export const presentTeamMemberFor =
  (urls: Urls) =>
  (row: MemberRow & { team_role: TeamMemberRole }): Schema<"TeamMember"> => ({
    organization: presentMember(row, urls),
    team: { role: row.team_role },
    permissions: { view: true },
  });
