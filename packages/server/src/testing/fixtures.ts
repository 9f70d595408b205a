import type { Role } from "../db/schema.js";
import { addMembership } from "../members/index.js";
import type { TestApp, TestUser } from "./harness.js";

/** Who a fixture user is to an organization: a member with a role, a guest (a member without one), or no one. */
export type Standing = Role | "guest" | "outsider";

/** A new user who is a guest of the organization: a member without a role. */
export async function guestOf(t: TestApp, organizationId: string): Promise<TestUser> {
  const guest = await t.user({ organizationId });
  await t.db
    .updateTable("memberships")
    .set({ role: null })
    .where("organization_id", "=", organizationId)
    .where("user_id", "=", guest.user.id)
    .execute();
  return guest;
}

/** A new user of the given standing towards the organization. */
export function userOf(t: TestApp, organizationId: string, standing: Standing): Promise<TestUser> {
  if (standing === "guest") return guestOf(t, organizationId);
  if (standing === "outsider") return t.user();
  return t.user({ organizationId, role: standing });
}

/** Makes an existing user a member of another organization too, with `role`. */
export function joinOrganization(
  t: TestApp,
  organizationId: string,
  user: TestUser,
  role: Role,
): Promise<void> {
  return addMembership(t.db, t, {
    organizationId,
    userId: user.user.id,
    role,
    joinedAt: t.clock.now().toISOString(),
  });
}

export type OrganizationFixture<M extends Record<string, Standing>> = {
  organizationId: string;
  admin: TestUser;
} & { [K in keyof M]: TestUser };

/**
 * A new organization of `t` with its admin, and a new user for each entry of `users`, of that standing
 * (created in the order given): `buildOrganization(t, { reader: "read", guest: "guest", outsider: "outsider" })`.
 */
export async function buildOrganization<M extends Record<string, Standing> = Record<never, Standing>>(
  t: TestApp,
  users: M = {} as M,
): Promise<OrganizationFixture<M>> {
  const { organizationId, admin } = await t.organization();
  const fixture: Record<string, unknown> = { organizationId, admin };
  for (const [name, standing] of Object.entries(users))
    fixture[name] = await userOf(t, organizationId, standing);
  return fixture as OrganizationFixture<M>;
}
