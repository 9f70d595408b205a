import type { Schema } from "@quire/api-types";
import { flag } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import type { SpaceTable } from "../db/schema.js";
import type { OrganizationRole } from "../policy.js";
import type { Services } from "../services.js";
import { newSpaceFor } from "./new-space.js";
import { linkableSpace, linkSpace } from "./site-spaces/store.js";
import { insertSite } from "./store.js";
import type { SiteTable } from "./tables.js";
import { newVisitorAuthKey, sealVisitorAuthKey } from "./visitor-auth.js";

/**
 * Creates a site in the organization, in `tx`, with the spaces `body` names (each one `role` may
 * link) or a new space of its own: createSite, and the default site of a new organization.
 */
export async function createSiteIn(
  tx: Db,
  services: Services,
  organizationId: string,
  role: OrganizationRole,
  body: Partial<Schema<"CreateSiteRequest">>,
  id: string = services.ids.next(),
): Promise<SiteTable> {
  const now = services.now();
  const title = body.title ?? "Untitled site";
  const site: SiteTable = {
    id,
    organization_id: organizationId,
    type: body.type ?? "basic",
    title,
    basename: null,
    proxy_origin: null,
    visibility: body.visibility ?? "public",
    published: flag(false),
    adaptive_content: flag(false),
    adaptive_schema: null,
    adaptive_schema_updated_at: null,
    auth_backend: "custom",
    auth_key: sealVisitorAuthKey(services.secretKey, id, newVisitorAuthKey()),
    auth_fallback_url: null,
    auth_logout_url: null,
    created_at: now,
    updated_at: now,
  };
  let spaces: SpaceTable[] = [];
  if (Array.isArray(body.spaces)) {
    for (const spaceId of new Set(body.spaces))
      spaces.push(await linkableSpace(tx, organizationId, role, spaceId));
  } else if (body.spaces !== undefined) {
    // `sample` would bring starter pages; pages belong to the content area, so both start empty.
    spaces = [await newSpaceFor(tx, services, organizationId, role, title)];
  }
  await insertSite(tx, site);
  for (const space of spaces)
    await linkSpace(tx, { id: services.ids.next(), siteId: site.id, sectionId: null, space, now });
  return site;
}
