import type { TestApp, TestUser } from "../testing/harness.js";

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
