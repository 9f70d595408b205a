import type { Schema } from "@quire/api-types";
import { fromJson, isSet } from "../db/codecs.js";
import type { OrganizationRole } from "../policy.js";
import type { Urls } from "../urls.js";
import { organizationPermissions } from "./policy.js";
import type { OrganizationRow } from "./store.js";

/** How the caller stands in an organization: their role (null for a guest) and whether they own a team. */
export interface OrganizationCaller {
  role: OrganizationRole;
  ownsTeam: boolean;
}

export function presentOrganization(
  row: OrganizationRow,
  { role, ownsTeam }: OrganizationCaller,
  urls: Urls,
): Schema<"Organization"> {
  return {
    object: "organization",
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    emailDomains: fromJson(row.email_domains),
    ...(row.hostname !== null && { hostname: row.hostname }),
    type: row.type,
    ...(row.use_case !== null && { useCase: row.use_case as Schema<"OrganizationUseCase"> }),
    ...(row.community_type !== null && {
      communityType: row.community_type as Schema<"OrganizationCommunityType">,
    }),
    defaultRole: row.default_role,
    ...(row.default_content_site !== null && {
      defaultContent: { type: "site", site: row.default_content_site },
    }),
    sso: isSet(row.sso),
    ai: isSet(row.ai),
    inviteLinks: isSet(row.invite_links),
    requireSecondFactor: isSet(row.require_second_factor),
    plan: row.plan as Schema<"BillingPlan">,
    urls: {
      location: urls.api(`orgs/${row.id}`),
      app: urls.app(`orgs/${row.id}`),
      ...(row.logo_url !== null && { logo: row.logo_url }),
    },
    // Quire has no trials: none was ever used.
    trial: { status: row.trial_status as Schema<"TrialStatus">, count: 0 },
    permissions: organizationPermissions(role, ownsTeam),
    mergeRules: row.merge_rules === null ? { type: "none" } : fromJson(row.merge_rules),
  };
}
