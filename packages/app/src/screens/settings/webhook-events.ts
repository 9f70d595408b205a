import type { Schema } from "@quire/client";

type EventType = Schema<"EventType">;

/** Every event type, as a record so that the compiler fails when the contract gains one this lacks. */
const EVENTS: Record<EventType, true> = {
  space_created: true,
  space_updated: true,
  space_visibility_updated: true,
  space_moved: true,
  space_deleted: true,
  space_restored: true,
  space_transferred: true,
  collection_created: true,
  collection_updated: true,
  collection_moved: true,
  collection_deleted: true,
  collection_transferred: true,
  space_content_updated: true,
  change_request_created: true,
  change_request_updated: true,
  change_request_status_updated: true,
  change_request_merged: true,
  change_request_updated_from_main: true,
  comment_created: true,
  comment_reply_created: true,
  member_joined: true,
  member_role_updated: true,
  member_removed: true,
  team_created: true,
  team_deleted: true,
  team_member_added: true,
  team_member_removed: true,
  site_published: true,
  site_unpublished: true,
  site_structure_updated: true,
  space_gitsync_started: true,
  space_gitsync_completed: true,
  installation_setup: true,
  installation_deleted: true,
  permission_granted: true,
  permission_removed: true,
  saml_provider_created: true,
  saml_provider_updated: true,
  saml_provider_deleted: true,
  oidc_provider_created: true,
  oidc_provider_updated: true,
  oidc_provider_deleted: true,
  token_created: true,
  token_revoked: true,
  sign_in_failed: true,
  signed_in: true,
  session_revoked: true,
  password_changed: true,
  factor_added: true,
  factor_removed: true,
  ping: true,
};

const isEventType = (key: string): key is EventType => key in EVENTS;

/** Every event type a webhook may ask for, in the contract's order. */
export const EVENT_TYPES: readonly EventType[] = Object.keys(EVENTS).filter(isEventType);
