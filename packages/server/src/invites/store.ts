import { sql } from "kysely";
import { callerMembership, contentWithCaller, membershipOf, roleOfRank } from "../access.js";
import { isSet, timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { preparedRead } from "../db/prepared.js";
import type { CollectionTable, Role, SpaceTable } from "../db/schema.js";
import { notFound } from "../http/errors.js";
import { keysetList } from "../http/paging.js";
import {
  addMembership,
  inOtherOrganization,
  type MembershipChange,
  setMemberRole,
} from "../members/index.js";
import { atLeast, type Membership, roleOnContent } from "../policy.js";
import { createUser, findUserByEmail } from "../users/index.js";
import type { InviteLinkTable } from "./tables.js";

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
}

/** A user to invite, by email, with the role they get (null: a guest). */
export interface EmailInvitee {
  email: string;
  role: Role | null;
}

/**
 * Adds the users of `invitees` to the organization, each with their role; unknown emails become
 * users without a token (the CLI gives them one). Members already there are left alone. With `sso`,
 * the new members sign in through single sign-on, unless they belong to another organization.
 */
export async function inviteByEmail(
  tx: Db,
  services: MembershipChange,
  organizationId: string,
  invitees: readonly EmailInvitee[],
  options: { sso: boolean },
): Promise<EmailInvites> {
  const now = timestamp(services.clock.now());
  const result: EmailInvites = { users: [], failedSSOEmails: [] };
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
  }
  return result;
}
