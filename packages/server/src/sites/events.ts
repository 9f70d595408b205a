import type { Clock, IdGenerator } from "../context.js";
import type { Db } from "../db/database.js";
import { recordEvent } from "../events/record.js";
import type { MemberSite } from "./store.js";

/** Records an event about the site `member` acts on, in their name. */
export function recordSiteEvent(
  tx: Db,
  context: { clock: Clock; ids: IdGenerator },
  { site, callerId }: MemberSite,
  type: "site_published" | "site_unpublished" | "site_structure_updated",
): Promise<void> {
  return recordEvent(tx, context, {
    organizationId: site.organization_id,
    type,
    actorId: callerId,
    siteId: site.id,
    data: { site: site.id, title: site.title },
  });
}
