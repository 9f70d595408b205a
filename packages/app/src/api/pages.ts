import { allItems, type Schema } from "@quire/client";
import { type QueryClient, queryOptions, type UseQueryResult, useQuery } from "@tanstack/react-query";
import { $api, fetchClient } from "./client.js";

type Collection = Schema<"Collection">;
type Space = Schema<"Space">;
type Organization = Schema<"Organization">;

/**
 * A list's cache key: the contract's `[method, pathTemplate, init]` of its first page (so invalidating
 * by that prefix reaches it), marked as holding every page (an array, not one page's body).
 */
export const EVERY_PAGE = { pages: "all" } as const;

/** Every item of a paged list: follows `next.page` to the last page. */
export async function every<Item>(
  fetchPage: Parameters<typeof allItems<Item>>[0],
  signal: AbortSignal,
): Promise<Item[]> {
  const items: Item[] = [];
  for await (const item of allItems(fetchPage)) {
    signal.throwIfAborted();
    items.push(item);
  }
  return items;
}

/** The query of the organization's collections, every page (the cache key is the first page's). */
const collectionsQuery = (organizationId: string) => {
  const init = { params: { path: { organizationId } } };
  return queryOptions({
    queryKey: [
      ...$api.queryOptions("get", "/v1/orgs/{organizationId}/collections", init).queryKey,
      EVERY_PAGE,
    ],
    queryFn: ({ signal }) =>
      every<Collection>(
        (page) =>
          fetchClient.GET("/v1/orgs/{organizationId}/collections", {
            signal,
            params: { path: { organizationId }, query: { page } },
          }),
        signal,
      ),
  });
};

/** The query of the organization's spaces, every page (the cache key is the first page's). */
const spacesQuery = (organizationId: string) => {
  const init = { params: { path: { organizationId } } };
  return queryOptions({
    queryKey: [...$api.queryOptions("get", "/v1/orgs/{organizationId}/spaces", init).queryKey, EVERY_PAGE],
    queryFn: ({ signal }) =>
      every<Space>(
        (page) =>
          fetchClient.GET("/v1/orgs/{organizationId}/spaces", {
            signal,
            params: { path: { organizationId }, query: { page } },
          }),
        signal,
      ),
  });
};

export const useCollections = (organizationId: string): UseQueryResult<Collection[]> =>
  useQuery(collectionsQuery(organizationId));

export const useSpaces = (organizationId: string): UseQueryResult<Space[]> =>
  useQuery(spacesQuery(organizationId));

/**
 * Starts reading the Content navigation's lists of an organization the app expects to show (the
 * path's, or the last shown) while the organizations are still on their way: one round trip less.
 */
export function prefetchContent(queryClient: QueryClient, organizationId: string): void {
  void queryClient.prefetchQuery(collectionsQuery(organizationId));
  void queryClient.prefetchQuery(spacesQuery(organizationId));
}

/** The organizations the person belongs to, every page. */
export function useOrganizations(): UseQueryResult<Organization[]> {
  return useQuery({
    queryKey: [...$api.queryOptions("get", "/v1/orgs").queryKey, EVERY_PAGE],
    queryFn: ({ signal }) =>
      every<Organization>(
        (page) => fetchClient.GET("/v1/orgs", { signal, params: { query: { page } } }),
        signal,
      ),
  });
}
