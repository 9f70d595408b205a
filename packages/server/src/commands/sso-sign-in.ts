import type { Schema } from "@quire/api-types";
import type { Role, UserTable } from "../db/schema.js";
import { recordEvent } from "../events/record.js";
import { addMembership } from "../members/index.js";
import { oidcProviders, presentOidcLogins } from "../oidc/index.js";
import type { Services } from "../services.js";
import { activeSamlProviders, organizationIdsForDomain, presentSamlLogins } from "../sso/index.js";
import { upsertTeamMember } from "../teams/index.js";
import { createUser, findUserByEmail } from "../users/index.js";

/** An organization's identity provider, SAML or OpenID Connect, as far as signing in goes. */
export interface SsoProvider {
  id: string;
  organization_id: string;
  default_role: Role | null;
  default_team_id: string | null;
}

/** Who the identity provider says is signing in: an email it vouches for. */
export interface SsoIdentity {
  email: string;
  name?: string | undefined;
}

/** Why a person the provider vouched for is still not signed in: told to them as it is. */
export class SsoSignInRefused extends Error {
  override name = "SsoSignInRefused";
}

/**
 * The user an identity provider signs in, for its organization: an SSO member already, or a person
 * new to Quire, who becomes one (the provider's default role and team) in the same transaction.
 * An account that exists without being this organization's SSO member is refused: the provider
 * vouches for an email, not for an account someone else may have made with it (GitBook: "log in with
 * your existing credentials"); an admin makes them an SSO member (`setUserAsSSOMemberForOrganization`).
 */
export function ssoMember(
  services: Services,
  provider: SsoProvider,
  identity: SsoIdentity,
): Promise<UserTable> {
  const organizationId = provider.organization_id;
  return services.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, identity.email);
    if (existing) {
      // An organization that enforces single sign-on trusts its providers for all of its members.
      const membership = await tx
        .selectFrom("memberships")
        .innerJoin("organizations", "organizations.id", "memberships.organization_id")
        .select(["memberships.sso as member_sso", "organizations.sso as organization_sso"])
        .where("memberships.organization_id", "=", organizationId)
        .where("memberships.user_id", "=", existing.id)
        .executeTakeFirst();
      if (membership?.member_sso || membership?.organization_sso) return existing;
      throw new SsoSignInRefused(
        `An account with the email ${existing.email} already exists and does not sign in through this provider: sign in with its password, and ask an administrator to turn on single sign-on for it.`,
      );
    }
    const user = await createUser(tx, services, {
      email: identity.email,
      displayName: identity.name?.trim() || identity.email.split("@")[0] || identity.email,
    });
    const now = services.now();
    await addMembership(tx, services, {
      organizationId,
      userId: user.id,
      role: provider.default_role,
      joinedAt: now,
      sso: true,
    });
    if (provider.default_team_id) {
      const team = await tx
        .selectFrom("teams")
        .select(["id", "title"])
        .where("id", "=", provider.default_team_id)
        .executeTakeFirst();
      if (team && (await upsertTeamMember(tx, team.id, user.id, undefined, now)))
        await recordEvent(tx, services, {
          organizationId,
          type: "team_member_added",
          data: { team: team.id, title: team.title, user: user.id },
        });
    }
    return user;
  });
}

/**
 * How to sign in to an organization through each of its single sign-on providers: its active SAML
 * providers, then its OpenID Connect ones, each oldest first.
 */
export async function ssoProviderLogins(
  services: Services,
  organizationId: string,
): Promise<Schema<"SsoProviderLogin">[]> {
  const [saml, oidc] = await Promise.all([
    activeSamlProviders(services.db, organizationId),
    oidcProviders(services.db, organizationId),
  ]);
  return [...presentSamlLogins(saml, services.urls), ...presentOidcLogins(oidc, services.urls)];
}

/**
 * Where a person signs in through single sign-on, from their email alone: the logins of the
 * organizations whose email domains include the email's (the sign-in page's "single sign-on").
 */
export async function ssoLoginsForEmail(
  services: Services,
  email: string,
): Promise<Schema<"SsoProviderLogin">[]> {
  const domain = email
    .slice(email.lastIndexOf("@") + 1)
    .trim()
    .toLowerCase();
  if (!domain) return [];
  const organizations = await organizationIdsForDomain(services.db, domain);
  const logins = await Promise.all(organizations.map((id) => ssoProviderLogins(services, id)));
  return logins.flat();
}
