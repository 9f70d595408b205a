import { truncateTitle } from "../content/titles.js";
import { authorizeCreateUnder, endPosition, lockContentTree } from "../content/tree.js";
import type { Db } from "../db/database.js";
import { badRequest } from "../http/errors.js";
import type { OrganizationRole } from "../policy.js";
import type { Services } from "../services.js";
import { insertSpace } from "../spaces/index.js";

const SPACE_TITLE_MAX = 50;

/**
 * A new empty space at the organization's top level, for a site that asks for one (`spaces` on
 * createSite, `spaceId: null` on addSectionToSite and addSpaceToSite): 403 unless `role` may create
 * content there. Callers holding a site's lock take the content tree's lock first (see
 * `changeStructure`), as every writer of the tree does.
 */
export async function newSpaceFor(
  tx: Db,
  services: Services,
  organizationId: string,
  role: OrganizationRole,
  title: string,
) {
  await lockContentTree(tx, [organizationId]);
  await authorizeCreateUnder(tx, organizationId, role, null);
  return insertSpace(tx, services, {
    organization_id: organizationId,
    parent_id: null,
    title: truncateTitle(title, SPACE_TITLE_MAX),
    emoji: "",
    visibility: "private",
    edit_mode: "live",
    default_level: "read",
    position: await endPosition(tx, organizationId, null),
  });
}

/** 400 for GitBook's template of a new space: Quire has none, and would otherwise create an empty space. */
export function refuseTemplate(template: unknown): void {
  if (template !== undefined) throw badRequest("template: Quire has no space templates; leave it out.");
}
