import type { AccessMap, AreaHandlers } from "../area.js";
import { ok } from "../http/results.js";
import { onOrganization } from "../organizations/index.js";
import type { Services } from "../services.js";
import { onSpace } from "../spaces/index.js";
import { searchContent, searchSpaceContent } from "./search.js";

export const searchAccess = {
  // Any member may search (what each reads is filtered there); others get 404, before any work.
  searchOrganizationContent: onOrganization("search its content"),
  searchSpaceContent: onSpace("search this space"),
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

    async searchSpaceContent({ query }, { space }) {
      return ok(await searchSpaceContent(db, urls, space, query.query, query));
    },
  };
}
