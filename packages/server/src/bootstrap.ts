import { issueToken } from "./auth/tokens.js";
import { createOrganization } from "./commands/create-organization.js";
import type { Clock, IdGenerator } from "./context.js";
import type { Db } from "./db/database.js";
import { createUser, hasUsers } from "./users/index.js";

export interface FirstRun {
  email: string;
  organizationId: string;
  token: string;
}

/**
 * On an empty database: an owner, their organization and a token, so that the first request can be
 * made at once. Returns undefined when the database already has users.
 */
export async function bootstrapOwner(
  db: Db,
  services: { clock: Clock; ids: IdGenerator },
  email: string,
): Promise<FirstRun | undefined> {
  if (await hasUsers(db)) return undefined;
  const owner = await createUser(db, services, { email, displayName: "Owner" });
  const organization = await createOrganization(db, services, owner.id, { title: "My organization" });
  const token = await issueToken(db, services, owner.id, "first run");
  return { email: owner.email, organizationId: organization.id, token };
}
