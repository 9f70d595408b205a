import { sql } from "kysely";
import { callerMembership, callerOwnsTeam } from "../access.js";
import { fromJson, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { memberLookup } from "../db/member-lookup.js";
import { preparedRead } from "../db/prepared.js";
import type { OrganizationTable } from "../db/schema.js";
import { notFound } from "../http/errors.js";
import { keysetList } from "../http/paging.js";
import type { Membership } from "../policy.js";
import { type TeamRow, teams } from "../teams/index.js";
import type { SamlProviderTable } from "./tables.js";

/** A provider can be used to sign in once its entity id, certificate and sign-in URL are all set. */
export const isActive = (row: SamlProviderTable) => Boolean(row.entity_id && row.certificate && row.sso_url);

const providerWithCaller = preparedRead(
  (db, args: { organizationId: string; providerId: string; callerId: string }) =>
    db
      .selectFrom("organizations as o")
      .leftJoin("saml_providers as p", (join) =>
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
): Promise<{ provider: SamlProviderTable; callerRole: Membership }> {
  const [found] = await providerWithCaller(db, args);
  const { row: provider, role: callerRole } = memberLookup(found, "Organization");
  if (provider.id === null) throw notFound("SAML provider");
  return { provider: provider as SamlProviderTable, callerRole };
}

/** A provider by its id alone, for the routes the identity provider and browsers call. */
export function providerById(db: Db, providerId: string): Promise<SamlProviderTable | undefined> {
  return db.selectFrom("saml_providers").selectAll().where("id", "=", providerId).executeTakeFirst();
}

/** The SAML providers of an organization, oldest first, each with the caller's membership. */
export const listProviders = keysetList(
  (db, args: { organizationId: string; callerId: string }) =>
    db
      .selectFrom("saml_providers")
      .selectAll()
      .select(callerMembership(args.callerId, args.organizationId).as("caller_membership"))
      .where("organization_id", "=", args.organizationId),
  { created_at: "string", id: "string" },
);

/** The active providers of an organization, oldest first. */
export async function activeProviders(db: Db, organizationId: string): Promise<SamlProviderTable[]> {
  const rows = await db
    .selectFrom("saml_providers")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.filter(isActive);
}

/** The default teams of the providers (SAML or OpenID Connect), as the caller sees them, by id. */
export async function defaultTeamsOf(
  db: Db,
  providers: readonly { default_team_id: string | null }[],
  callerId: string,
): Promise<Map<string, TeamRow>> {
  const ids = [...new Set(providers.flatMap((p) => (p.default_team_id ? [p.default_team_id] : [])))];
  if (ids.length === 0) return new Map();
  const rows = await teams(db, callerId).where("t.id", "in", ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export async function teamInOrganization(db: Db, organizationId: string, teamId: string): Promise<boolean> {
  const row = await db
    .selectFrom("teams")
    .select("id")
    .where("id", "=", teamId)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertProvider(db: Db, row: SamlProviderTable): Promise<void> {
  await db.insertInto("saml_providers").values(row).execute();
}

export async function updateProvider(
  db: Db,
  id: string,
  changes: Partial<Omit<SamlProviderTable, "id" | "organization_id" | "created_at">>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable("saml_providers").set(changes).where("id", "=", id).execute();
}

export async function deleteProvider(db: Db, id: string): Promise<void> {
  await db.deleteFrom("saml_providers").where("id", "=", id).execute();
}

/**
 * The organizations whose email domains include `domain` (ignoring case): among all of them when
 * `everywhere`, else among those the caller belongs to; each with the caller's membership.
 */
export async function organizationsForDomain(db: Db, domain: string, callerId: string, everywhere: boolean) {
  let query = db
    .selectFrom("organizations")
    .selectAll()
    .select(callerMembership(callerId, sql.ref("organizations.id")).as("caller_membership"))
    .select(callerOwnsTeam(callerId, sql.ref("organizations.id")).as("caller_owns_team"))
    .where(mayListDomain(domain));
  if (!everywhere)
    query = query.where(
      "id",
      "in",
      db.selectFrom("memberships").select("organization_id").where("user_id", "=", callerId),
    );
  const rows = await query.orderBy("id").execute();
  return rows.filter(listsDomain(domain));
}

/** A first cut in SQL on the JSON text of `email_domains`; `listsDomain` makes the exact match. */
const mayListDomain = (domain: string) =>
  sql<boolean>`lower(email_domains) like ${`%${toJson(domain).replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;

const listsDomain =
  (domain: string) =>
  (row: { email_domains: OrganizationTable["email_domains"] }): boolean =>
    fromJson(row.email_domains).some((listed) => listed.toLowerCase() === domain);

/** The ids of the organizations whose email domains include `domain` (lower-cased), oldest first. */
export async function organizationIdsForDomain(db: Db, domain: string): Promise<string[]> {
  const rows = await db
    .selectFrom("organizations")
    .select(["id", "email_domains"])
    .where(mayListDomain(domain))
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.filter(listsDomain(domain)).map((row) => row.id);
}
