import { sql } from "kysely";
import { callerMembership } from "../access.js";
import type { Db } from "../db/database.js";
import { memberLookup } from "../db/member-lookup.js";
import { preparedRead } from "../db/prepared.js";
import { notFound } from "../http/errors.js";
import { keysetList } from "../http/paging.js";
import type { Membership } from "../policy.js";
import type { OidcProviderTable } from "./tables.js";

const providerWithCaller = preparedRead(
  (db, args: { organizationId: string; providerId: string; callerId: string }) =>
    db
      .selectFrom("organizations as o")
      .leftJoin("oidc_providers as p", (join) =>
        join.onRef("p.organization_id", "=", "o.id").on("p.id", "=", args.providerId),
      )
      .selectAll("p")
      .select(callerMembership(args.callerId, sql.ref("o.id")).as("caller_membership"))
      .where("o.id", "=", args.organizationId),
);

/** The provider and the caller's role in its organization, in one statement; 404 for either missing. */
export async function providerForCaller(
  db: Db,
  args: { organizationId: string; providerId: string; callerId: string },
): Promise<{ provider: OidcProviderTable; callerRole: Membership }> {
  const [found] = await providerWithCaller(db, args);
  const { row: provider, role: callerRole } = memberLookup(found, "Organization");
  if (provider.id === null) throw notFound("OpenID Connect provider");
  return { provider: provider as OidcProviderTable, callerRole };
}

/** The OpenID Connect providers of an organization, oldest first, each with the caller's membership. */
export const listProviders = keysetList(
  (db, args: { organizationId: string; callerId: string }) =>
    db
      .selectFrom("oidc_providers")
      .selectAll()
      .select(callerMembership(args.callerId, args.organizationId).as("caller_membership"))
      .where("organization_id", "=", args.organizationId),
  { created_at: "string", id: "string" },
);

export async function insertProvider(db: Db, row: OidcProviderTable): Promise<void> {
  await db.insertInto("oidc_providers").values(row).execute();
}

export async function updateProvider(
  db: Db,
  id: string,
  changes: Partial<Omit<OidcProviderTable, "id" | "organization_id" | "created_at">>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable("oidc_providers").set(changes).where("id", "=", id).execute();
}

export async function deleteProvider(db: Db, id: string): Promise<void> {
  await db.deleteFrom("oidc_providers").where("id", "=", id).execute();
}

/** A provider by its id alone, for the routes browsers follow to sign in. */
export function providerById(db: Db, providerId: string): Promise<OidcProviderTable | undefined> {
  return db.selectFrom("oidc_providers").selectAll().where("id", "=", providerId).executeTakeFirst();
}

/** The providers of an organization, oldest first: each can be signed in with once created. */
export function organizationProviders(db: Db, organizationId: string): Promise<OidcProviderTable[]> {
  return db
    .selectFrom("oidc_providers")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}
