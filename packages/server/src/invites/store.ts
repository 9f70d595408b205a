import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { callerMembership, contentWithCaller, membershipOf, roleOfRank } from "../access.js";
import { fromJson, isSet, timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { preparedRead } from "../db/prepared.js";
import type { CollectionTable, Role, SpaceTable, UserTable } from "../db/schema.js";
import { notFound } from "../http/errors.js";
import { keysetList } from "../http/paging.js";
import {
  addMembership,
  inOtherOrganization,
  lockMemberships,
  type MembershipChange,
  setMemberRole,
} from "../members/index.js";
import { atLeast, type Membership, roleOnContent } from "../policy.js";
import { createUser, findUserByEmail } from "../users/index.js";
import type { EmailInvitationTable, InviteLinkTable } from "./tables.js";

export interface InviteLookup {
  invite: InviteLinkTable;
  callerRole: Membership;
  inviteLinks: boolean;
}

const inviteWithCaller = preparedRead(
  (db, args: { organizationId: string; inviteId: string; callerId: string }) =>
    db
      .selectFrom("invite_links as i")
      .innerJoin("organizations as o", "o.id", "i.organization_id")
      .selectAll("i")
      .select("o.invite_links")
      .select(callerMembership(args.callerId, sql.ref("o.id")).as("caller_membership"))
      .where("i.id", "=", args.inviteId)
      .where("i.organization_id", "=", args.organizationId),
);

/**
 * The invite with the caller's membership (undefined for a non-member, who may join with it) and
 * whether its organization allows invite links, in one statement; 404 for an unknown invite.
 */
export async function inviteForCaller(
  db: Db,
  args: { organizationId: string; inviteId: string; callerId: string },
): Promise<InviteLookup> {
  const [found] = await inviteWithCaller(db, args);
  if (!found) throw notFound("Invite");
  const { caller_membership, invite_links, ...invite } = found;
  return { invite, callerRole: membershipOf(caller_membership), inviteLinks: isSet(invite_links) };
}

/**
 * The invite links to an organization, newest first, each with the caller's membership; those to
 * its spaces and collections are not listed (GitBook lists invites to the organization only).
 */
export const listInvites = keysetList(
  (db, args: { organizationId: string; callerId: string }) =>
    db
      .selectFrom("invite_links")
      .selectAll()
      .select(callerMembership(args.callerId, args.organizationId).as("caller_membership"))
      .where("organization_id", "=", args.organizationId)
      .where("space_id", "is", null)
      .where("collection_id", "is", null),
  { created_at: "string", id: "string" },
  { descending: true },
);

export async function insertInvite(db: Db, invite: InviteLinkTable): Promise<void> {
  await db.insertInto("invite_links").values(invite).execute();
}

export async function setInviteRole(db: Db, inviteId: string, role: Role | null): Promise<void> {
  await db.updateTable("invite_links").set({ role }).where("id", "=", inviteId).execute();
}

export async function deleteInvite(db: Db, inviteId: string): Promise<void> {
  await db.deleteFrom("invite_links").where("id", "=", inviteId).execute();
}

/**
 * Makes the user a member with `role` (null: a guest), or raises their role to it; a member with
 * that role or a higher one stays as they are (every member has at least a guest's). Never a
 * second membership.
 */
export async function joinWithRole(
  tx: Db,
  change: MembershipChange,
  { organizationId, userId, role }: { organizationId: string; userId: string; role: Role | null },
  current: Membership,
): Promise<void> {
  if (current === undefined) {
    const joinedAt = timestamp(change.clock.now());
    await addMembership(tx, change, { organizationId, userId, role, joinedAt }, { ifAbsent: true });
    return;
  }
  if (role !== null && !atLeast(current, role))
    await setMemberRole(tx, change, { organizationId, userId, role });
}

/** The space or collection an invite is to, with a user's role on it (undefined: none). */
export type InvitedContent =
  | { kind: "space"; row: SpaceTable; role: Role | undefined }
  | { kind: "collection"; row: CollectionTable; role: Role | undefined };

const spaceWithCaller = contentWithCaller("spaces");
const collectionWithCaller = contentWithCaller("collections");

/**
 * The space or collection `contentId` names, when it is in the organization, with `userId`'s role
 * on it: the same as on any content (see `roleOnContent`), undefined for a non-member without a grant.
 */
export async function contentInOrganization(
  db: Db,
  organizationId: string,
  content: { kind: InvitedContent["kind"]; id: string },
  userId: string,
): Promise<InvitedContent | undefined> {
  const read = content.kind === "space" ? spaceWithCaller : collectionWithCaller;
  const [found] = await read(db, { id: content.id, userId });
  if (!found || found.organization_id !== organizationId) return undefined;
  const { caller_membership, caller_grant, ...row } = found;
  const granted = roleOfRank(caller_grant);
  const role = roleOnContent(membershipOf(caller_membership), row.default_level, granted ? [granted] : []);
  return { kind: content.kind, row, role } as InvitedContent;
}

/** What an invite names: the organization, or the space or collection it is to. */
export function inviteTarget(
  invite: InviteLinkTable,
): { kind: InvitedContent["kind"]; id: string } | undefined {
  if (invite.space_id !== null) return { kind: "space", id: invite.space_id };
  if (invite.collection_id !== null) return { kind: "collection", id: invite.collection_id };
  return undefined;
}

export interface EmailInvites {
  users: string[];
  failedSSOEmails: string[];
  /** The new members, each with the link to mail them. */
  invitations: Array<EmailInvitee & InvitationLink>;
}

/** A user to invite, by email, with the role they get (null: a guest). */
export interface EmailInvitee {
  email: string;
  role: Role | null;
}

/** How long the link mailed with an invitation works. */
const INVITATION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Adds the users of `invitees` to the organization, each with their role, and makes each new member
 * a one-time link to mail them; unknown emails become users without a password or token, which the
 * link lets them choose. Members already there are left alone. With `sso`, the new members sign in
 * through single sign-on, unless they belong to another organization.
 */
export async function inviteByEmail(
  tx: Db,
  services: MembershipChange,
  organizationId: string,
  invitees: readonly EmailInvitee[],
  options: { sso: boolean },
): Promise<EmailInvites> {
  const now = timestamp(services.clock.now());
  const result: EmailInvites = { users: [], failedSSOEmails: [], invitations: [] };
  for (const { email, role } of invitees) {
    const user =
      (await findUserByEmail(tx, email)) ??
      (await createUser(tx, services, { email, displayName: email.slice(0, email.indexOf("@")) }));
    const member = await tx
      .selectFrom("memberships")
      .select("user_id")
      .where("organization_id", "=", organizationId)
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    if (member) continue;
    const sso = options.sso && !(await inOtherOrganization(tx, organizationId, user.id));
    if (options.sso && !sso) result.failedSSOEmails.push(email);
    await addMembership(tx, services, {
      organizationId,
      userId: user.id,
      role,
      joinedAt: now,
      sso,
    });
    result.users.push(user.id);
    const link = await insertInvitation(tx, services, { organizationId, userId: user.id });
    result.invitations.push({ email, role, ...link });
  }
  return result;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The token of an invitation's one-time link, and when it expires. */
export interface InvitationLink {
  token: string;
  expiresAt: Date;
}

/** Makes the one-time link of a new member's invitation; only its token's hash is stored. */
async function insertInvitation(
  tx: Db,
  { clock, ids }: MembershipChange,
  { organizationId, userId }: { organizationId: string; userId: string },
): Promise<InvitationLink> {
  const token = randomBytes(32).toString("base64url");
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_MS);
  await tx
    .insertInto("email_invitations")
    .values({
      id: ids.next(),
      token_hash: sha256(token),
      organization_id: organizationId,
      user_id: userId,
      created_at: timestamp(now),
      expires_at: timestamp(expiresAt),
      used_at: null,
    })
    .execute();
  return { token, expiresAt };
}

/** An invitation whose link still works, with what its pages show and who it is for. */
export interface OpenInvitation {
  id: EmailInvitationTable["id"];
  organizationId: string;
  organizationTitle: string;
  /** The organization enforces single sign-on, or the invitation made its member an SSO one. */
  sso: boolean;
  role: Role | null;
  user: UserTable;
  /** The invited user has a password: an account of their own, not a person new to Quire. */
  hasPassword: boolean;
}

/**
 * The invitation a link's token is for, while it is unused, unexpired and its membership is there;
 * undefined otherwise (an unknown token alike). It does not use it.
 */
export async function openInvitation(db: Db, token: string, now: Date): Promise<OpenInvitation | undefined> {
  const found = await db
    .selectFrom("email_invitations as i")
    .innerJoin("memberships as m", (join) =>
      join.onRef("m.organization_id", "=", "i.organization_id").onRef("m.user_id", "=", "i.user_id"),
    )
    .innerJoin("organizations as o", "o.id", "i.organization_id")
    .innerJoin("users as u", "u.id", "i.user_id")
    .leftJoin("user_passwords as p", "p.user_id", "i.user_id")
    .selectAll("u")
    .select([
      "i.id as invitation_id",
      "o.id as organization_id",
      "o.title as organization_title",
      "o.sso as organization_sso",
      "m.sso as membership_sso",
      "m.role as role",
      "p.user_id as password_holder",
    ])
    .where("i.token_hash", "=", sha256(token))
    .where("i.used_at", "is", null)
    .where("i.expires_at", ">", timestamp(now))
    .executeTakeFirst();
  if (!found) return undefined;
  const {
    invitation_id,
    organization_id,
    organization_title,
    organization_sso,
    membership_sso,
    role,
    password_holder,
    ...user
  } = found;
  return {
    id: invitation_id,
    organizationId: organization_id,
    organizationTitle: organization_title,
    sso: isSet(organization_sso) || isSet(membership_sso),
    role,
    user,
    hasPassword: password_holder !== null,
  };
}

/** Uses an invitation: true once, false to every later or concurrent use and to an expired one. */
export async function useInvitation(db: Db, invitationId: string, now: Date): Promise<boolean> {
  const used = await db
    .updateTable("email_invitations")
    .set({ used_at: timestamp(now) })
    .where("id", "=", invitationId)
    .where("used_at", "is", null)
    .where("expires_at", ">", timestamp(now))
    .executeTakeFirst();
  return used.numUpdatedRows > 0n;
}

/** An invite link with its organization's title and whether it allows invite links; undefined for none. */
export async function inviteLinkById(
  db: Db,
  inviteId: string,
): Promise<(InviteLinkTable & { organization_title: string; links_allowed: boolean }) | undefined> {
  const found = await db
    .selectFrom("invite_links as i")
    .innerJoin("organizations as o", "o.id", "i.organization_id")
    .selectAll("i")
    .select(["o.title as organization_title", "o.invite_links"])
    .where("i.id", "=", inviteId)
    .executeTakeFirst();
  if (!found) return undefined;
  const { invite_links, ...invite } = found;
  return { ...invite, links_allowed: isSet(invite_links) };
}

/**
 * `userId` joins `organizationId` as a guest when the domain of `email` is one of the organization's
 * email domains (GitBook's `joinOrganization`): false for an unknown organization and when the
 * domain is not one of them. A member already stays as they are.
 */
export async function joinByEmailDomain(
  tx: Db,
  change: MembershipChange,
  { organizationId, userId, email }: { organizationId: string; userId: string; email: string },
): Promise<boolean> {
  const organization = await tx
    .selectFrom("organizations")
    .select("email_domains")
    .where("id", "=", organizationId)
    .executeTakeFirst();
  if (!organization) return false;
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  if (!fromJson(organization.email_domains).some((allowed) => allowed.toLowerCase() === domain)) return false;
  await lockMemberships(tx, organizationId);
  const joinedAt = timestamp(change.clock.now());
  await addMembership(tx, change, { organizationId, userId, role: null, joinedAt }, { ifAbsent: true });
  return true;
}
