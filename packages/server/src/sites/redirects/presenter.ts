import type { Schema } from "@quire/api-types";
import { fromJson, isSet } from "../../db/codecs.js";
import type { SiteRedirectTable } from "../tables.js";

export function presentSiteRedirect(row: SiteRedirectTable): Schema<"SiteRedirect"> {
  return {
    object: "site-redirect",
    id: row.id,
    source: row.source,
    draft: isSet(row.draft),
    captureWildcard: isSet(row.capture_wildcard),
    permanent: isSet(row.permanent),
    destination: fromJson(row.destination),
    createdAt: row.created_at,
    ...(row.updated_at !== null && { updatedAt: row.updated_at }),
  };
}
