import type { Schema } from "@quire/api-types";
import { type AccessMap, type AreaHandlers, anyCaller } from "../area.js";
import { joinWithInvite } from "../commands/join-with-invite.js";
import { isSet } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { Role } from "../db/schema.js";
import { badRequest, notFound, preconditionFailed } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import { invitationMail, sendInBackground } from "../mail/index.js";
import { lockMemberships } from "../members/index.js";
import { onOrganization } from "../organizations/index.js";
import { ROLE_ORDER } from "../policy.js";
import type { Services } from "../services.js";
import { assertSpaceNotDeleted } from "../spaces/index.js";
import { onInvite } from "./access.js";
import { canManageInvites } from "./policy.js";
import { invitationUrl, presentInviteFor, presentInviteLink } from "./presenter.js";
import {
  contentInOrganization,
  deleteInvite,
  type EmailInvitee,
  type InvitedContent,
  insertInvite,
  inviteByEmail,
  inviteForCaller,
  inviteTarget,
  joinByEmailDomain,
  listInvites,
  setInviteRole,
} from "./store.js";
import type { InviteLinkTable } from "./tables.js";

const MANAGE = "manage the invitations of this organization";
const LINKS_OFF = "Invite links are turned off in this organization.";
const NO_LEVEL = "An invite to a space or collection needs a `level`: a null level would give nothing there.";

const managesInvites = onOrganization(MANAGE, ({ role }) => canManageInvites(role));
const managesInvite = onInvite(MANAGE, ({ role }) => canManageInvites(role));

export const inviteAccess = {
  inviteUsersToOrganization: managesInvites,
  // The caller joins an organization they are not yet a member of: the invite is their access.
  joinOrganizationWithInvite: anyCaller,
  // ...or their email's domain is.
  joinOrganization: anyCaller,
  listOrganizationInviteLinks: managesInvites,
  createOrganizationInvite: managesInvites,
  // Any member reads a link, to see whether it would give them more (`redundant`).
  getOrganizationInviteLink: onInvite("see this invite"),
  updateOrganizationInviteById: managesInvite,
  deleteOrganizationInviteById: managesInvite,
} satisfies AccessMap;

/**
 * The invitees of a request, one per email whatever its case, each with its own role or the
 * request's; 400 for an email listed twice with different roles.
 */
function emailInvitees(emails: readonly Schema<"EmailInvite">[], role: Role | null): EmailInvitee[] {
  const invitees = new Map<string, EmailInvitee>();
  for (const item of emails) {
    const invitee = typeof item === "string" ? { email: item, role } : item;
    const email = invitee.email.toLowerCase();
    const listed = invitees.get(email);
    if (listed && listed.role !== invitee.role)
      throw badRequest(`${invitee.email} is listed twice, with different roles.`);
    invitees.set(email, { email, role: invitee.role });
  }
  return [...invitees.values()];
}

type InviteTarget = Pick<InviteLinkTable, "role" | "space_id" | "collection_id">;

/**
 * What a new invite link is to and gives: the organization with `role` (the organization's default
 * when omitted), or a space or a collection with `level`; 400 for a body mixing them. The
 * organization's variant, all optional, lets any object through the contract: the fields of the
 * content variants are checked here.
 */
function requestedTarget(body: Schema<"CreateInviteRequest">, defaultRole: Role | null): InviteTarget {
  const fields: Record<string, unknown> = body;
  const { space, collection, level } = fields;
  if (space === undefined && collection === undefined) {
    if (level !== undefined) throw badRequest("A `level` is given on a `space` or a `collection`: name one.");
    const role = "role" in body && body.role !== undefined ? body.role : defaultRole;
    return { role, space_id: null, collection_id: null };
  }
  if ("role" in body || (space !== undefined && collection !== undefined))
    throw badRequest(
      "An invite is to the organization (`role`), a space or a collection (`level`): not to several.",
    );
  if (level === null) throw badRequest(NO_LEVEL);
  if (!isRole(level)) throw badRequest(`\`level\` must be one of ${ROLE_ORDER.join(", ")}.`);
  const id = (value: unknown) => {
    if (value !== undefined && typeof value !== "string")
      throw badRequest("`space` and `collection` are ids.");
    return value ?? null;
  };
  return { role: level, space_id: id(space), collection_id: id(collection) };
}

const isRole = (value: unknown): value is Role => ROLE_ORDER.includes(value as Role);

/**
 * The space or collection an invite is to, with `userId`'s role on it; undefined for an invite to
 * the organization; 404 once the content has left the organization.
 */
async function contentOfInvite(
  db: Db,
  invite: InviteLinkTable,
  userId: string,
): Promise<InvitedContent | undefined> {
  const target = inviteTarget(invite);
  if (!target) return undefined;
  const content = await contentInOrganization(db, invite.organization_id, target, userId);
  if (!content) throw notFound("Invite");
  return content;
}

/**
 * The caller joins through the invite link `inviteId` of `organizationId` (see `joinWithInvite`): 404
 * for an unknown link or one whose content has left the organization, 412 when the organization has
 * turned invite links off.
 */
export async function joinThroughLink(
  services: Services,
  args: { organizationId: string; inviteId: string; callerId: string },
): Promise<void> {
  const { invite, callerRole, inviteLinks } = await inviteForCaller(services.db, args);
  if (!inviteLinks) throw preconditionFailed(LINKS_OFF, "invite_links_disabled");
  const content = await contentOfInvite(services.db, invite, args.callerId);
  if (content?.kind === "space") assertSpaceNotDeleted(content.row);
  await joinWithInvite(services, invite, content, args.callerId, callerRole);
}

export function inviteHandlers(services: Services): AreaHandlers<typeof inviteAccess> {
  const { db, urls, ids, now, transaction } = services;

  return {
    async inviteUsersToOrganization({ body, caller }, { organization }) {
      const role = body.role === undefined ? organization.default_role : body.role;
      const invitees = emailInvitees(body.emails, role);
      const result = await transaction(async (tx) => {
        await lockMemberships(tx, organization.id);
        return inviteByEmail(tx, { ...services, actorId: caller.user.id }, organization.id, invitees, {
          sso: body.sso ?? false,
        });
      });
      for (const { email, role, token, expiresAt } of result.invitations)
        sendInBackground(services.mailer, services.logger, {
          to: email,
          ...invitationMail({
            organizationName: organization.title,
            inviterName: caller.user.display_name,
            role,
            link: invitationUrl(urls, token),
            expiresAt,
          }),
        });
      return ok({
        users: result.users,
        invited: result.users.length,
        ...(result.failedSSOEmails.length > 0 && { failedSSOEmails: result.failedSSOEmails }),
      });
    },

    async joinOrganizationWithInvite({ path, caller }) {
      await joinThroughLink(services, { ...path, callerId: caller.user.id });
      return { status: 200 as const, body: {} };
    },

    async joinOrganization({ path, caller }) {
      const joined = await transaction((tx) =>
        joinByEmailDomain(
          tx,
          { ...services, actorId: caller.user.id },
          { organizationId: path.organizationId, userId: caller.user.id, email: caller.user.email },
        ),
      );
      // As an unknown one: whoever may not join learns nothing of the organization.
      if (!joined) throw notFound("Organization");
      return noContent();
    },

    async listOrganizationInviteLinks({ path, query, caller }, { role }) {
      const args = { organizationId: path.organizationId, callerId: caller.user.id };
      const page = await listInvites(db, args, query);
      return ok(presentPage(page, presentInviteFor(role)));
    },

    async createOrganizationInvite({ body, caller }, { organization, role }) {
      if (!isSet(organization.invite_links)) throw preconditionFailed(LINKS_OFF, "invite_links_disabled");
      const target = requestedTarget(body, organization.default_role);
      const invite: InviteLinkTable = {
        id: ids.next(),
        organization_id: organization.id,
        ...target,
        created_by: caller.user.id,
        created_at: now(),
      };
      const named = inviteTarget(invite);
      const content = named && (await contentInOrganization(db, organization.id, named, caller.user.id));
      if (named && !content) throw notFound(named.kind === "space" ? "Space" : "Collection");
      if (content?.kind === "space") assertSpaceNotDeleted(content.row);
      await insertInvite(db, invite);
      // An invite carries no `urls`: its Location is given here.
      return {
        status: 201 as const,
        headers: { location: urls.api(`orgs/${organization.id}/link-invites/${invite.id}`) },
        body: presentInviteLink(invite, role, content, urls),
      };
    },

    async getOrganizationInviteLink({ caller }, { invite, role }) {
      const content = await contentOfInvite(db, invite, caller.user.id);
      return ok(presentInviteLink(invite, role, content, urls));
    },

    async updateOrganizationInviteById({ body, caller }, { invite, role }) {
      const content = await contentOfInvite(db, invite, caller.user.id);
      let given: Role | null;
      if (content) {
        if (!("level" in body) || "role" in body)
          throw badRequest("An invite to a space or collection has a `level`, not a `role`.");
        if (body.level === null) throw badRequest(NO_LEVEL);
        given = body.level;
      } else {
        if (!("role" in body) || "level" in body)
          throw badRequest("An invite to the organization has a `role`, not a `level`.");
        given = body.role;
      }
      await setInviteRole(db, invite.id, given);
      return ok(presentInviteLink({ ...invite, role: given }, role, content, urls));
    },

    async deleteOrganizationInviteById(_input, { invite }) {
      await deleteInvite(db, invite.id);
      return noContent();
    },
  };
}
