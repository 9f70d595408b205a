import type { Schema } from "@quire/api-types";
import { truncateTitle } from "../content/titles.js";
import type { Clock, IdGenerator } from "../context.js";
import type { Db } from "../db/database.js";
import { addMembership } from "../members/index.js";
import {
  insertOrganization,
  type NewOrganization,
  newOrganization,
  type OrganizationRow,
} from "../organizations/index.js";
import type { Services } from "../services.js";
import { createSiteIn } from "../sites/index.js";

const SITE_TITLE_MAX = 128;

/** Inserts the organization and makes `ownerId` its admin (members), in `tx`. */
async function insertWithOwner(
  tx: Db,
  services: { clock: Clock; ids: IdGenerator },
  ownerId: string,
  organization: OrganizationRow,
): Promise<void> {
  await insertOrganization(tx, organization);
  await addMembership(
    tx,
    { ...services, actorId: ownerId },
    { organizationId: organization.id, userId: ownerId, role: "admin", joinedAt: organization.created_at },
  );
}

/**
 * Creates an organization (organizations) and makes `ownerId` its admin (members), in one transaction,
 * which it opens: it is the whole operation wherever it is called (the API, the first run, the CLI). A
 * command, since `members` imports `organizations`: `organizations` adding the membership would close a
 * cycle.
 */
export async function createOrganization(
  db: Db,
  services: { clock: Clock; ids: IdGenerator },
  ownerId: string,
  input: NewOrganization,
): Promise<OrganizationRow> {
  const organization = newOrganization(services, input);
  await db.transaction().execute((tx) => insertWithOwner(tx, services, ownerId, organization));
  return organization;
}

/**
 * createOrganization with GitBook's `withDefaultSite`: also a site of the organization's title with a
 * new empty space, as the organization's default content; all in one transaction.
 */
export async function createOrganizationWithSite(
  services: Services,
  ownerId: string,
  input: NewOrganization & { onboardingPreferences?: Schema<"SiteOnboardingPreferences"> },
): Promise<OrganizationRow> {
  const siteId = services.ids.next();
  const organization = { ...newOrganization(services, input), default_content_site: siteId };
  const title = truncateTitle(organization.title, SITE_TITLE_MAX);
  const audience = input.onboardingPreferences?.audience;
  const visibility = audience ? VISIBILITY_FOR[audience] : undefined;
  await services.transaction(async (tx) => {
    await insertWithOwner(tx, services, ownerId, organization);
    await createSiteIn(
      tx,
      services,
      organization.id,
      "admin",
      { title, spaces: "empty", ...(visibility && { visibility }) },
      siteId,
    );
  });
  return organization;
}

/** The default site's visibility for GitBook's onboarding audience (the contract's `SiteOnboardingAudience`). */
const VISIBILITY_FOR: Record<Schema<"SiteOnboardingAudience">, Schema<"SiteVisibility">> = {
  public: "public",
  mixed: "public",
  protected: "visitor-auth",
  internal: "share-link",
};
