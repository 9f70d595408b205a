import type { AccessMap, AreaHandlers } from "../area.js";
import { ok } from "../http/results.js";
import { onOrganization } from "../organizations/index.js";
import type { Services } from "../services.js";
import { searchContent } from "./search.js";

export const searchAccess = {
  // Any member may search (what each reads is filtered there); others get 404, before any work.
  searchOrganizationContent: onOrganization("search its content"),
} satisfies AccessMap;

export function searchHandlers(services: Services): AreaHandlers<typeof searchAccess> {
  const { db, urls } = services;
  return {
    async searchOrganizationContent({ query, caller }, { organization }) {
      const spaces = { organizationId: organization.id, userId: caller.user.id };
      return ok(
        await searchContent(db, urls, { organizationId: organization.id, spaces, text: query.query }, query),
      );
    },
  };
}
