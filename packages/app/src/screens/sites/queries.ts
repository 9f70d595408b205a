import { type Schema, unwrap } from "@quire/client";
import { type QueryKey, type UseQueryResult, useQuery, useQueryClient } from "@tanstack/react-query";
import { $api, fetchClient } from "../../api/client.js";
import { EVERY_PAGE, every } from "../../api/pages.js";

export type Site = Schema<"Site">;
export type SiteSection = Schema<"SiteSection">;
export type Customization = Schema<"SiteCustomizationSettings">;
export type SiteSectionGroup = Schema<"SiteSectionGroup">;

const SITES = "/v1/orgs/{organizationId}/sites";
const SECTIONS = "/v1/orgs/{organizationId}/sites/{siteId}/sections";
const SECTION_GROUPS = "/v1/orgs/{organizationId}/sites/{siteId}/section-groups";
const CUSTOMIZATION = "/v1/orgs/{organizationId}/sites/{siteId}/customization";
export const ADAPTIVE_SCHEMA = "/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema";

/** The organization's sites, every page. */
export function useSites(organizationId: string): UseQueryResult<Site[]> {
  const init = { params: { path: { organizationId } } };
  return useQuery({
    queryKey: [...$api.queryOptions("get", SITES, init).queryKey, EVERY_PAGE],
    queryFn: ({ signal }) =>
      every<Site>(
        (page) => fetchClient.GET(SITES, { signal, params: { path: { organizationId }, query: { page } } }),
        signal,
      ),
  });
}

/** The site's sections in their order, every page. */
export function useSections(organizationId: string, siteId: string): UseQueryResult<SiteSection[]> {
  const path = { organizationId, siteId };
  return useQuery({
    queryKey: [...$api.queryOptions("get", SECTIONS, { params: { path } }).queryKey, EVERY_PAGE],
    queryFn: ({ signal }) =>
      every<SiteSection>(
        (page) => fetchClient.GET(SECTIONS, { signal, params: { path, query: { page } } }),
        signal,
      ),
  });
}

/** The site's section groups in their order, each with its sections, every page. */
export function useSectionGroups(organizationId: string, siteId: string): UseQueryResult<SiteSectionGroup[]> {
  const path = { organizationId, siteId };
  return useQuery({
    queryKey: [...$api.queryOptions("get", SECTION_GROUPS, { params: { path } }).queryKey, EVERY_PAGE],
    queryFn: ({ signal }) =>
      every<SiteSectionGroup>(
        (page) => fetchClient.GET(SECTION_GROUPS, { signal, params: { path, query: { page } } }),
        signal,
      ),
  });
}

/** The JSON Schema of the site's visitor attributes, which conditions read as `visitor.claims`. */
export function useAdaptiveSchema(organizationId: string, siteId: string) {
  return $api.useQuery("get", ADAPTIVE_SCHEMA, { params: { path: { organizationId, siteId } } });
}

/** The site's customization with its `ETag`, which a save sends back as `If-Match`. */
export interface TaggedCustomization {
  settings: Customization;
  etag: string | undefined;
}

export function useCustomization(
  organizationId: string,
  siteId: string,
): UseQueryResult<TaggedCustomization> {
  const init = { params: { path: { organizationId, siteId } } };
  return useQuery({
    queryKey: [...$api.queryOptions("get", CUSTOMIZATION, init).queryKey, { etag: true }],
    queryFn: async ({ signal }) => {
      const call = await fetchClient.GET(CUSTOMIZATION, { ...init, signal });
      return { settings: await unwrap(call), etag: call.response.headers.get("ETag") ?? undefined };
    },
    // A new read replaces the form: only Save and Reload may, not coming back to the window, which
    // would drop what the person typed (someone else's change is told by Save's 412 instead).
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/** Whether a cache key is a read of the organization's sites or anything under one. */
const isSiteRead = (queryKey: QueryKey) =>
  queryKey[0] === "get" && typeof queryKey[1] === "string" && queryKey[1].startsWith(SITES);

/**
 * Refreshes every cached read of sites: a site's change shows in the list (published, audience), in its
 * screen and in its sections (a section's site spaces), each under its own contract path.
 */
export function useRefreshSites(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ predicate: (query) => isSiteRead(query.queryKey) });
}

/** What each tab of a site's screen is given. */
export interface SiteTabProps {
  organizationId: string;
  site: Site;
}

/** Replaces the site's customization (sent with `If-Match`: a 412 when someone else saved first). */
export function useSaveCustomization() {
  const refresh = useRefreshSites();
  return $api.useMutation("put", CUSTOMIZATION, { onSuccess: refresh });
}
