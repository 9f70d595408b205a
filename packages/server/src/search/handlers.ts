import { ok } from "../http/results.js";
import { organizationRoleOf } from "../organizations/index.js";
import type { AreaHandlers, Services } from "../services.js";
import { searchOrganization } from "./search.js";

export function searchHandlers(services: Services): AreaHandlers<"searchOrganizationContent"> {
  const { db, urls } = services;
  return {
    async searchOrganizationContent({ path, query, caller }) {
      const args = { organizationId: path.organizationId, userId: caller.user.id };
      // Any member may search (what each reads is filtered there); others get 404, before any work.
      await organizationRoleOf(db, args);
      return ok(await searchOrganization(db, urls, { ...args, text: query.query }, query));
    },
  };
}
