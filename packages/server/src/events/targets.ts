import type { EventData, EventType } from "./record.js";

/** The resource an event is about, as the audit log shows it. */
export interface EventTarget {
  /** Kind of resource: `space`, `change-request`, `user`… */
  type: string;
  id: string;
  /** Its title or label when the event was recorded, when the event says. */
  label?: string;
}

type Targets = { [T in EventType]: (data: EventData<T>, organizationId: string) => EventTarget };

const space = (data: { space: string; title?: string }): EventTarget => ({
  type: "space",
  id: data.space,
  ...(data.title !== undefined && { label: data.title }),
});
const collection = (data: { collection: string; title: string }): EventTarget => ({
  type: "collection",
  id: data.collection,
  label: data.title,
});
const changeRequest = (data: { changeRequest: string; subject: string }): EventTarget => ({
  type: "change-request",
  id: data.changeRequest,
  label: data.subject,
});
const comment = (data: { comment: string; reply?: string }): EventTarget =>
  data.reply === undefined
    ? { type: "comment", id: data.comment }
    : { type: "comment-reply", id: data.reply };
const user = (data: { user: string }): EventTarget => ({ type: "user", id: data.user });
const team = (data: { team: string; title: string }): EventTarget => ({
  type: "team",
  id: data.team,
  label: data.title,
});
const site = (data: { site: string; title: string }): EventTarget => ({
  type: "site",
  id: data.site,
  label: data.title,
});
const installation = (data: { installation: string; integration: string }): EventTarget => ({
  type: "installation",
  id: data.installation,
  label: data.integration,
});
// A role on content is about the content; the event's data names whom it was given to.
const grant = (data: { space?: string; collection?: string }): EventTarget =>
  data.space !== undefined
    ? { type: "space", id: data.space }
    : { type: "collection", id: data.collection ?? "" };
const samlProvider = (data: { provider: string; label: string }): EventTarget => ({
  type: "saml-provider",
  id: data.provider,
  label: data.label,
});
const oidcProvider = (data: { provider: string; label: string }): EventTarget => ({
  type: "oidc-provider",
  id: data.provider,
  label: data.label,
});
const token = (data: { token: string; label: string }): EventTarget => ({
  type: "token",
  id: data.token,
  label: data.label,
});
const organization = (_data: unknown, organizationId: string): EventTarget => ({
  type: "organization",
  id: organizationId,
});

/** What each type of event is about: the compiler makes a new type say. */
const TARGETS: Targets = {
  space_created: space,
  space_updated: space,
  space_visibility_updated: space,
  space_moved: space,
  space_deleted: space,
  space_restored: space,
  space_transferred: space,
  collection_created: collection,
  collection_updated: collection,
  collection_moved: collection,
  collection_deleted: collection,
  collection_transferred: collection,
  space_content_updated: space,
  change_request_created: changeRequest,
  change_request_updated: changeRequest,
  change_request_status_updated: changeRequest,
  change_request_merged: changeRequest,
  change_request_updated_from_main: changeRequest,
  comment_created: comment,
  comment_reply_created: comment,
  member_joined: user,
  member_role_updated: user,
  member_removed: user,
  team_created: team,
  team_deleted: team,
  team_member_added: team,
  team_member_removed: team,
  site_published: site,
  site_unpublished: site,
  site_structure_updated: site,
  space_gitsync_started: space,
  space_gitsync_completed: space,
  installation_setup: installation,
  installation_deleted: installation,
  permission_granted: grant,
  permission_removed: grant,
  saml_provider_created: samlProvider,
  saml_provider_updated: samlProvider,
  saml_provider_deleted: samlProvider,
  oidc_provider_created: oidcProvider,
  oidc_provider_updated: oidcProvider,
  oidc_provider_deleted: oidcProvider,
  token_created: token,
  token_revoked: token,
  sign_in_failed: organization,
  signed_in: user,
  session_revoked: user,
  password_changed: user,
  factor_added: user,
  factor_removed: user,
  ping: organization,
};

/** The resource an event of the organization is about. */
export function targetOf<T extends EventType>(
  organizationId: string,
  type: T,
  data: EventData<T>,
): EventTarget {
  return (TARGETS[type] as (data: EventData<T>, organizationId: string) => EventTarget)(data, organizationId);
}
