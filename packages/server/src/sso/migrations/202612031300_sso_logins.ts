import type { Kysely } from "kysely";

/**
 * Sign-ins through an identity provider under way (a SAML request, an OpenID Connect authorization),
 * each bound to the browser that began it by a cookie of which only the hash is kept; and the SAML
 * assertions already used, until they expire, so that none signs anyone in twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sso_logins")
    .addColumn("request_id", "text", (c) => c.primaryKey())
    .addColumn("browser_hash", "text", (c) => c.notNull())
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("nonce", "text")
    .addColumn("code_verifier", "text")
    .addColumn("next", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("sso_assertions")
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("assertion_id", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("sso_assertions_pk", ["provider_id", "assertion_id"])
    .execute();
}
