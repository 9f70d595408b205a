import { createLinkToken, FIRST_START_LINK_MS, signInLinkUrl } from "./accounts/index.js";
import { issueToken } from "./auth/tokens.js";
import { createOrganization } from "./commands/create-organization.js";
import type { Clock, IdGenerator } from "./context.js";
import type { Db } from "./db/database.js";
import type { Urls } from "./urls.js";
import { createUser, hasUsers } from "./users/index.js";

export interface FirstRun {
  email: string;
  organizationId: string;
  token: string;
  /** Opens the app signed in as the owner: once, within a day. */
  signInUrl: string;
}

/**
 * On an empty database: an owner, their organization, a token and a one-time sign-in link, so that
 * the first request can be made, and the app opened, at once. Returns undefined when the database
 * already has users.
 */
export async function bootstrapOwner(
  db: Db,
  services: { clock: Clock; ids: IdGenerator; urls: Urls },
  email: string,
): Promise<FirstRun | undefined> {
  if (await hasUsers(db)) return undefined;
  const owner = await createUser(db, services, { email, displayName: "Owner" });
  const organization = await createOrganization(db, services, owner.id, { title: "My organization" });
  const token = await issueToken(db, services, owner.id, "first run");
  const link = await createLinkToken(db, services, {
    userId: owner.id,
    purpose: "sign_in",
    validForMs: FIRST_START_LINK_MS,
  });
  return {
    email: owner.email,
    organizationId: organization.id,
    token,
    signInUrl: signInLinkUrl(services.urls, link),
  };
}
