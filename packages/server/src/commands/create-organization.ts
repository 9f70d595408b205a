import type { Clock, IdGenerator } from "../context.js";
import type { Db } from "../db/database.js";
import { addMembership } from "../members/index.js";
import {
  insertOrganization,
  type NewOrganization,
  newOrganization,
  type OrganizationRow,
} from "../organizations/index.js";

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
  await db.transaction().execute(async (tx) => {
    await insertOrganization(tx, organization);
    await addMembership(
      tx,
      { ...services, actorId: ownerId },
      {
        organizationId: organization.id,
        userId: ownerId,
        role: "admin",
        joinedAt: organization.created_at,
      },
    );
  });
  return organization;
}
