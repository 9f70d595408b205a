import type { Schema } from "@quire/api-types";
import { presentCollection } from "../collections/index.js";
import type { Role } from "../db/schema.js";
import type { Membership } from "../policy.js";
import { presentSpace } from "../spaces/index.js";
import { JOIN_PAGE, type Urls } from "../urls.js";
import { isRedundant } from "./policy.js";
import type { InvitedContent } from "./store.js";
import type { InviteLinkTable } from "./tables.js";

export function presentInvite(row: InviteLinkTable, callerRole: Membership): Schema<"Invite"> {
  return { object: "invite", id: row.id, role: row.role, redundant: isRedundant(callerRole, row.role) };
}

export const presentInviteFor = (callerRole: Membership) => (row: InviteLinkTable) =>
  presentInvite(row, callerRole);

/** An invite to the organization, or to the space or collection `content` (with the caller's role on it). */
export function presentInviteLink(
  row: InviteLinkTable,
  callerRole: Membership,
  content: InvitedContent | undefined,
  urls: Urls,
): Schema<"InviteLink"> {
  if (!content) return presentInvite(row, callerRole);
  const level = levelOf(row);
  const common = {
    object: "invite",
    id: row.id,
    level,
    redundant: isRedundant(content.role, level),
  } as const;
  return content.kind === "space"
    ? { ...common, space: presentSpace(content.row, content.role, urls) }
    : { ...common, collection: presentCollection(content.row, content.role, urls) };
}

/** The level of an invite to content: its `role`, which the handlers never leave null there. */
function levelOf(row: InviteLinkTable): Role {
  if (row.role === null) throw new Error(`Invite ${row.id} to content has no level`);
  return row.role;
}

/** The page an invitation's mailed link opens: `join/<token>`. */
export const invitationUrl = (urls: Urls, token: string): string => urls.page(`${JOIN_PAGE}/${token}`);

/** The page where a signed-in person joins through an invite link. */
export const inviteLinkUrl = (urls: Urls, inviteId: string): string =>
  urls.page(`${JOIN_PAGE}/link/${inviteId}`);
