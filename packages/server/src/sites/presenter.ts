import type { Schema } from "@quire/api-types";
import { fromJson, isSet } from "../db/codecs.js";
import { conflict } from "../http/errors.js";
import type { OrganizationRole } from "../policy.js";
import type { Urls } from "../urls.js";
import { DEFAULT_ADAPTIVE_SCHEMA } from "./adaptive-schema.js";
import { sitePermissions } from "./policy.js";
import type { SiteRow } from "./store.js";
import type { SiteShareLinkTable, SiteTable } from "./tables.js";
import { type PublishedUrls, publishedUrls } from "./urls.js";
import { openVisitorAuthKey } from "./visitor-auth.js";

type FeatureKey = Schema<"SiteFeatureKey">;
type SiteType = Schema<"SiteType">;

/**
 * The features each plan brings, each plan adding to the one before (inferred from GitBook's plans:
 * Quire gates nothing on them, it only reports them).
 */
const BASIC: FeatureKey[] = [
  "sites-basic-customization",
  "sites-full-text-search",
  "sites-public-visibility",
  "sites-unlisted-visibility",
  "sites-page-feedback",
  "sites-api-playground",
  "sites-no-custom-domain",
];
const PREMIUM: FeatureKey[] = [
  "sites-custom-domain",
  "sites-custom-subdirectory",
  "sites-sections",
  "sites-share-links",
  "sites-redirects",
  "sites-seo",
  "sites-ai-search",
  "sites-page-traffic-insights",
  "sites-search-insights",
  "sites-broken-links",
  "sites-pdf-export",
];
const ULTIMATE: FeatureKey[] = [
  "sites-advanced-customization",
  "sites-adaptive-content",
  "sites-visitor-authentication",
  "sites-multivariant-site",
  "sites-custom-fonts",
  "sites-advanced-insights",
  "sites-ai-assistant",
  "sites-preview-deployments",
];

function featuresOf(type: SiteType): Schema<"SiteFeature">[] {
  const tiers: Array<[SiteType, FeatureKey[]]> =
    type === "ultimate"
      ? [
          ["basic", BASIC],
          ["premium", PREMIUM],
          ["ultimate", ULTIMATE],
        ]
      : type === "premium" || type === "sponsored" || type === "legacy-premium"
        ? [
            ["basic", BASIC],
            ["premium", PREMIUM],
          ]
        : [["basic", BASIC]];
  return tiers.flatMap(([plan, keys]) => keys.map((id) => ({ id, plan, frozen: false })));
}

/**
 * A site as `role` sees it. Its preview is the application's page of it: Quire serves a site's content
 * only once published, at `urls.published`.
 */
export function presentSite(
  row: SiteRow,
  urls: Urls,
  published: PublishedUrls,
  role: OrganizationRole,
): Schema<"Site"> {
  const at = published.at([]);
  const app = urls.app(`orgs/${row.organization_id}/sites/${row.id}`);
  return {
    object: "site",
    id: row.id,
    type: row.type,
    appliedType: row.type,
    title: row.title,
    ...(row.basename !== null && { basename: row.basename }),
    ...(row.proxy_origin !== null && { proxy: { origin: row.proxy_origin, target: published.root } }),
    visibility: row.visibility,
    defaultLevel: "inherit",
    permissions: sitePermissions(role),
    published: isSet(row.published),
    siteSpaces: Number(row.site_space_count),
    createdAt: row.created_at,
    adaptiveContent: { enabled: isSet(row.adaptive_content) },
    ads: { status: "pending" },
    features: featuresOf(row.type),
    urls: {
      location: urls.api(`orgs/${row.organization_id}/sites/${row.id}`),
      app,
      ...(at !== undefined && { published: at }),
      preview: app,
    },
  };
}

/** Presents rows of sites to a caller of `role`, each with its own published URLs. */
export const presentSiteFor = (urls: Urls, role: OrganizationRole) => (row: SiteRow) =>
  presentSite(row, urls, publishedUrls(urls, row), role);

export function presentAdaptiveSchema(site: SiteTable): Schema<"SiteAdaptiveSchema"> {
  const jsonSchema = site.adaptive_schema === null ? DEFAULT_ADAPTIVE_SCHEMA : fromJson(site.adaptive_schema);
  return {
    object: "site-adaptive-schema",
    jsonSchema,
    updatedAt: site.adaptive_schema_updated_at ?? site.created_at,
  };
}

export function presentShareLink(link: SiteShareLinkTable, urls: Urls, site: SiteTable): Schema<"ShareLink"> {
  const at = isSet(link.active) ? publishedUrls(urls, site, link.share_key).at([]) : undefined;
  return {
    object: "share-link",
    id: link.id,
    createdAt: link.created_at,
    name: link.name,
    active: isSet(link.active),
    urls: { ...(at !== undefined && { published: at }) },
  };
}

export function presentPublishingAuth(site: SiteTable, secretKey: string): Schema<"SitePublishingAuth"> {
  const privateKey = openVisitorAuthKey(secretKey, site.id, site.auth_key);
  if (privateKey === undefined)
    throw conflict(
      "The site's visitor key was encrypted with another secret key (QUIRE_SECRET_KEY changed): regenerate it (POST …/publishing/auth/regenerate).",
    );
  return {
    object: "publishing-auth",
    backend: site.auth_backend,
    privateKey,
    ...(site.auth_fallback_url !== null && { fallbackURL: site.auth_fallback_url }),
    ...(site.auth_logout_url !== null && { logoutURL: site.auth_logout_url }),
  };
}
