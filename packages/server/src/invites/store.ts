import { sql } from "kysely";
import { callerMembership, membershipOf } from "../access.js";
import { isSet, timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { preparedRead } from "../db/prepared.js";
import type { Role } from "../db/schema.js";
import { notFound } from "../http/errors.js";
import { keysetList } from "../http/paging.js";
import {
  addMembership,
  inOtherOrganization,
  type MembershipChange,
  setMemberRole,
} from "../members/index.js";
import { atLeast, type Membership } from "../policy.js";
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

/** The invite links of an organization, newest first, each with the caller's membership. */
export const listInvites = keysetList(
  (db, args: { organizationId: string; callerId: string }) =>
    db
      .selectFrom("invite_links")
      .selectAll()
      .select(callerMembership(args.callerId, args.organizationId).as("caller_membership"))
      .where("organization_id", "=", args.organizationId),
  { created_at: "string", id: "string" },
  { descending: true },
);

export async function insertInvite(db: Db, invite: InviteLinkTable): Promise<void> {
  await db.insertInto("invite_links").values(invite).execute();
}

export async function setInviteRole(db: Db, inviteId: string, role: Role): Promise<void> {
  await db.updateTable("invite_links").set({ role }).where("id", "=", inviteId).execute();
}

export async function deleteInvite(db: Db, inviteId: string): Promise<void> {
  await db.deleteFrom("invite_links").where("id", "=", inviteId).execute();
}

/**
 * Makes the user a member with `role`, or raises their role to it; a member with that role or a
 * higher one stays as they are. Never a second membership.
 */
export async function joinWithRole(
  tx: Db,
  change: MembershipChange,
  { organizationId, userId, role }: { organizationId: string; userId: string; role: Role },
  current: Membership,
): Promise<void> {
  if (current === undefined) {
    const joinedAt = timestamp(change.clock.now());
    await addMembership(tx, change, { organizationId, userId, role, joinedAt }, { ifAbsent: true });
    return;
  }
  if (!atLeast(current, role)) await setMemberRole(tx, change, { organizationId, userId, role });
}

export interface EmailInvites {
  users: string[];
  failedSSOEmails: string[];
}

/**
 * Adds the users of `emails` to the organization with `role`; unknown emails become users without
 * a token (the CLI gives them one). Members already there are left alone. With `sso`, the new
 * members sign in through single sign-on, unless they belong to another organization.
 */
export async function inviteByEmail(
  tx: Db,
  services: MembershipChange,
  organizationId: string,
  emails: readonly string[],
  options: { role: Role | null; sso: boolean },
): Promise<EmailInvites> {
  const now = timestamp(services.clock.now());
  const result: EmailInvites = { users: [], failedSSOEmails: [] };
  for (const email of emails) {
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
      role: options.role,
      joinedAt: now,
      sso,
    });
    result.users.push(user.id);
  }
  return result;
}
