import type { Schema } from "@quire/api-types";
import { roleOfRank } from "../access.js";
import type { Role, UserTable } from "../db/schema.js";
import type { OrganizationRole } from "../policy.js";
import { presentTeam, type TeamRow } from "../teams/index.js";
import type { Urls } from "../urls.js";
import { presentUser } from "../users/index.js";

export const presentUserGrantFor =
  (urls: Urls) =>
  (row: UserTable & { permission: Role }): Schema<"UserContentPermission"> => ({
    permission: row.permission,
    user: presentUser(row, urls),
  });

export const presentTeamGrantFor =
  (callerRole: OrganizationRole) =>
  (row: TeamRow & { permission: Role }): Schema<"TeamContentPermission"> => ({
    permission: row.permission,
    team: presentTeam(row, callerRole),
  });

export const presentAccessFor =
  (urls: Urls) =>
  (row: UserTable & { rank: number | string | null }): Schema<"UserContentPermission"> => ({
    // The listing keeps only members with a role there.
    permission: roleOfRank(row.rank) ?? "read",
    user: presentUser(row, urls),
  });
