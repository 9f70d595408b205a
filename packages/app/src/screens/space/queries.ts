import { $api } from "../../api/client.js";

/** The rendered page's query: the same options for reading it and for prefetching it on hover or focus. */
export const renderedPageOptions = (spaceId: string, pageId: string) =>
  $api.queryOptions("get", "/v1/spaces/{spaceId}/content/page/{pageId}/rendered", {
    params: { path: { spaceId, pageId } },
  });

/** The space's page tree (nested `pages`). */
export const usePages = (spaceId: string) =>
  $api.useQuery("get", "/v1/spaces/{spaceId}/content/pages", { params: { path: { spaceId } } });
