import type { Schema } from "@quire/api-types";
import { fromJson } from "../db/codecs.js";
import type { EventType } from "../events/record.js";
import type { EventTable } from "../events/tables.js";
import { targetOf } from "../events/targets.js";
import type { Urls } from "../urls.js";

/** Event types the audit log shows: every change, not the webhooks' test pings. */
export type AuditedType = Exclude<EventType, "ping">;

/**
 * The stable dotted name and label of each audited event type: `<resource>.<what happened>`, from the
 * type's name. The compiler makes a new event type say, and a name once given never changes.
 */
export const AUDIT_ACTIONS: { readonly [T in AuditedType]: readonly [action: string, label: string] } = {
  space_created: ["space.created", "Space created"],
  space_updated: ["space.updated", "Space updated"],
  space_visibility_updated: ["space.visibility_updated", "Space visibility changed"],
  space_moved: ["space.moved", "Space moved"],
  space_deleted: ["space.deleted", "Space deleted"],
  space_restored: ["space.restored", "Space restored"],
  space_transferred: ["space.transferred", "Space transferred to another organization"],
  collection_created: ["collection.created", "Collection created"],
  collection_updated: ["collection.updated", "Collection updated"],
  collection_moved: ["collection.moved", "Collection moved"],
  collection_deleted: ["collection.deleted", "Collection deleted"],
  collection_transferred: ["collection.transferred", "Collection transferred to another organization"],
  space_content_updated: ["space.content_updated", "Space content updated"],
  change_request_created: ["change_request.created", "Change request created"],
  change_request_updated: ["change_request.updated", "Change request updated"],
  change_request_status_updated: ["change_request.status_updated", "Change request status changed"],
  change_request_merged: ["change_request.merged", "Change request merged"],
  change_request_updated_from_main: ["change_request.updated_from_main", "Change request updated from main"],
  comment_created: ["comment.created", "Comment posted"],
  comment_reply_created: ["comment.reply_created", "Comment reply posted"],
  member_joined: ["member.joined", "Member joined"],
  member_role_updated: ["member.role_updated", "Member role changed"],
  member_removed: ["member.removed", "Member removed"],
  team_created: ["team.created", "Team created"],
  team_deleted: ["team.deleted", "Team deleted"],
  team_member_added: ["team.member_added", "Team member added"],
  team_member_removed: ["team.member_removed", "Team member removed"],
  site_published: ["site.published", "Site published"],
  site_unpublished: ["site.unpublished", "Site unpublished"],
  site_structure_updated: ["site.structure_updated", "Site structure changed"],
  space_gitsync_started: ["space.gitsync_started", "Git Sync operation started"],
  space_gitsync_completed: ["space.gitsync_completed", "Git Sync operation completed"],
  installation_setup: ["installation.setup", "Integration installed"],
  installation_deleted: ["installation.deleted", "Integration uninstalled"],
  permission_granted: ["permission.granted", "Permission granted"],
  permission_removed: ["permission.removed", "Permission removed"],
  saml_provider_created: ["saml_provider.created", "SAML provider added"],
  saml_provider_updated: ["saml_provider.updated", "SAML provider updated"],
  saml_provider_deleted: ["saml_provider.deleted", "SAML provider removed"],
  oidc_provider_created: ["oidc_provider.created", "OpenID Connect provider added"],
  oidc_provider_updated: ["oidc_provider.updated", "OpenID Connect provider updated"],
  oidc_provider_deleted: ["oidc_provider.deleted", "OpenID Connect provider removed"],
  token_created: ["token.created", "API token created"],
  token_revoked: ["token.revoked", "API token revoked"],
  sign_in_failed: ["sign_in.failed", "Sign-in failed"],
  signed_in: ["sign_in.succeeded", "Member signed in"],
  session_revoked: ["session.revoked", "Session revoked"],
  password_changed: ["password.changed", "Password changed"],
  factor_added: ["factor.added", "Second factor added"],
  factor_removed: ["factor.removed", "Second factor removed"],
};

const typeOfAction = new Map(
  Object.entries(AUDIT_ACTIONS).map(([type, [action]]) => [action, type as AuditedType]),
);

/** The event type an action names; undefined for a name the log does not give. */
export const typeOfAuditAction = (action: string): AuditedType | undefined => typeOfAction.get(action);

export const presentActions = (): Schema<"AuditEventActionList"> => ({
  items: Object.values(AUDIT_ACTIONS).map(([id, label]) => ({ object: "audit-event-action", id, label })),
});

function actorOf(row: EventTable): Schema<"AuditEventActor"> {
  const origin = {
    ...(row.actor_token_id !== null && { token: row.actor_token_id }),
    ...(row.actor_address !== null && { address: row.actor_address }),
  };
  if (row.actor_id !== null) return { type: "user", id: row.actor_id, ...origin };
  // A request without a valid token has an address and no one behind it.
  if (row.type === "sign_in_failed") return { type: "anonymous", id: "anonymous", ...origin };
  return { type: "system", id: "system", ...origin };
}

/** An audit event as the list shows it. */
export function presentAuditEvent(row: EventTable, urls: Urls): Schema<"AuditEvent"> {
  const type = row.type as AuditedType;
  return {
    object: "audit-event",
    id: row.id,
    occurredAt: row.created_at,
    action: AUDIT_ACTIONS[type][0],
    actor: actorOf(row),
    source: row.actor_address !== null || row.actor_token_id !== null ? "api" : "system",
    target: targetOf(row.organization_id, type, fromJson(row.data) as never),
    urls: { location: urls.api(`orgs/${row.organization_id}/audit-events/${row.id}`) },
  };
}

/** An audit event with its event's payload. */
export function presentAuditEventDetails(row: EventTable, urls: Urls): Schema<"AuditEventDetails"> {
  return {
    ...presentAuditEvent(row, urls),
    schemaVersion: 1,
    payload: fromJson(row.data) as Schema<"AuditEventDetails">["payload"],
  };
}
