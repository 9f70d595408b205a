import { createHash } from "node:crypto";
import type { Schema } from "@quire/api-types";
import { toJson } from "../db/codecs.js";
import { badRequest } from "../http/errors.js";
import { checkConfigurations } from "./configuration.js";
import type { IntegrationTable } from "./tables.js";

/** A stored PNG image: its SHA-256, which names it in URLs, and its base64 text. */
interface Image {
  hash: string;
  data: string;
}

/** What a publication stores besides the integration's identity, version and secrets. */
export interface Publication {
  fields: Omit<
    IntegrationTable,
    | "id"
    | "name"
    | "owner_organization_id"
    | "version"
    | "verified"
    | "secrets"
    | "signing_secret"
    | "created_at"
    | "updated_at"
  >;
  /** Every image once, though the icon or a preview may repeat another. */
  images: Image[];
  domains: string[];
}

/** The limits of GitBook's CLI (`readImage` in its `publish.ts`), which reads PNG files only. */
const ICON_MAX_BYTES = 250 * 1024;
const PREVIEW_MAX_BYTES = 1024 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function pngImage(base64: string, what: string, maxBytes: number): Image {
  const bytes = BASE64.test(base64) ? Buffer.from(base64, "base64") : undefined;
  if (!bytes?.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE))
    throw badRequest(`${what} must be a PNG image encoded in base64.`);
  if (bytes.length > maxBytes) throw badRequest(`${what} must not be larger than ${maxBytes / 1024} KB.`);
  return { hash: createHash("sha256").update(bytes).digest("hex"), data: base64 };
}

/** The host of a URL pattern such as `https://*.example.com/file/*`, lowercased. */
function hostOf(pattern: string): string {
  const rest = pattern.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
  const authority = rest.split(/[/?#]/, 1)[0] ?? "";
  return authority
    .slice(authority.lastIndexOf("@") + 1)
    .replace(/:\d*$/, "")
    .toLowerCase();
}

/**
 * The domains the blocks unfurl URLs under: each host with every parent domain of it, so that a
 * filter on `example.com` finds blocks of `www.example.com`. Wildcard labels stand for any
 * sub-domain, so the host is what follows the last of them.
 */
function blockDomains(blocks: readonly Schema<"IntegrationBlock">[]): string[] {
  const domains = new Set<string>();
  for (const pattern of blocks.flatMap((block) => block.urlUnfurl ?? [])) {
    const labels = hostOf(pattern).split(".");
    const fixed = labels.slice(labels.findLastIndex((label) => label.includes("*")) + 1);
    if (fixed.length === 0 || fixed.includes("")) continue;
    for (let i = 0; i < fixed.length; i++) domains.add(fixed.slice(i).join("."));
  }
  return [...domains];
}

/** Where events go: an absolute http or https URL. */
function eventsUrl(url: string | undefined): string | null {
  if (url === undefined) return null;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== "http:" && parsed?.protocol !== "https:")
    throw badRequest("eventsURL must be an absolute http or https URL.");
  return url;
}

/** The definition a publication stores; 400 for what the contract's schema cannot check. */
/** The configurations as they show: each schema with its `properties`, none when left out. */
function withProperties(
  configurations: Schema<"IntegrationConfigurationsInput">,
): Schema<"IntegrationConfigurations"> {
  return Object.fromEntries(
    Object.entries(configurations).map(([level, schema]) => [level, { properties: {}, ...schema }]),
  );
}

/**
 * A content security policy as its header's value: given so, or from GitBook's directives (each
 * `name value`, joined by `; `); null when none is given. A value cannot close its directive.
 */
function cspHeader(policy: Schema<"PublishIntegrationRequest">["contentSecurityPolicy"]): string | null {
  if (policy === undefined) return null;
  if (typeof policy === "string") return policy;
  const directives = Object.entries(policy).map(([name, value]) => {
    if (/[;,\r\n]/.test(value as string))
      throw badRequest(`contentSecurityPolicy.${name} cannot hold ";", "," or a line break.`);
    return `${name} ${value}`.trim();
  });
  return directives.join("; ");
}

export function publicationOf(body: Schema<"PublishIntegrationRequest">): Publication {
  checkConfigurations(body.configurations);
  const icon = body.icon === undefined ? undefined : pngImage(body.icon, "icon", ICON_MAX_BYTES);
  const previews = (body.previewImages ?? []).map((image, i) =>
    pngImage(image, `previewImages[${i}]`, PREVIEW_MAX_BYTES),
  );
  const images = new Map([...(icon ? [icon] : []), ...previews].map((image) => [image.hash, image]));
  const blocks = body.blocks ?? [];
  return {
    fields: {
      title: body.title,
      search_title: body.title.toLowerCase(),
      description: body.description,
      summary: body.summary ?? null,
      visibility: body.visibility ?? "private",
      target: body.target ?? "all",
      scopes: toJson(body.scopes),
      categories: toJson(body.categories ?? []),
      blocks: toJson(blocks),
      content_sources: toJson(body.contentSources ?? []),
      external_links: toJson(body.externalLinks ?? []),
      configurations: body.configurations ? toJson(withProperties(body.configurations)) : null,
      content_security_policy: cspHeader(body.contentSecurityPolicy),
      script: body.script,
      icon: icon?.hash ?? null,
      preview_images: toJson(previews.map((image) => image.hash)),
      events_url: eventsUrl(body.eventsURL),
    },
    images: [...images.values()],
    domains: blockDomains(blocks),
  };
}
