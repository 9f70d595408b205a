import type { Schema } from "@quire/api-types";
import type { Membership } from "../policy.js";
import { isRedundant } from "./policy.js";
import type { InviteLinkTable } from "./tables.js";

export function presentInvite(row: InviteLinkTable, callerRole: Membership): Schema<"Invite"> {
  return { object: "invite", id: row.id, role: row.role, redundant: isRedundant(callerRole, row.role) };
}

export const presentInviteFor = (callerRole: Membership) => (row: InviteLinkTable) =>
  presentInvite(row, callerRole);
