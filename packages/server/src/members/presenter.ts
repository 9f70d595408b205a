import type { Schema } from "@quire/api-types";
import { isSet } from "../db/codecs.js";
import type { Urls } from "../urls.js";
import { presentUser } from "../users/index.js";
import type { MemberRow } from "./store.js";

export function presentMember(row: MemberRow, urls: Urls): Schema<"Member"> {
  return {
    object: "member",
    id: row.user_id,
    role: row.role,
    user: presentUser(row, urls),
    disabled: false,
    joinedAt: row.joined_at,
    ...(row.last_seen_at !== null && { lastSeenAt: row.last_seen_at }),
    sso: isSet(row.sso),
    spaces: Number(row.space_count),
    teams: Number(row.team_count),
    sites: Number(row.site_count),
  };
}

export const presentMemberFor = (urls: Urls) => (row: MemberRow) => presentMember(row, urls);
