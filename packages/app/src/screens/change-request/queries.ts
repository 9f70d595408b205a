import type { QueryClient } from "@tanstack/react-query";
import { $api } from "../../api/client.js";

/** The path of every operation on one change request: its space and number. */
export type ChangeRequestPath = { spaceId: string; changeRequestId: string };

export const PAGES = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages";
export const CONTENT = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content";
export const PAGE = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}";

export const pagesOptions = (path: ChangeRequestPath) =>
  $api.queryOptions("get", PAGES, { params: { path } });

/** After an edit of its pages: the change request, its pages and its changes all moved. */
export const refreshChangeRequest = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({
    predicate: (query) =>
      typeof query.queryKey[1] === "string" &&
      query.queryKey[1].startsWith("/v1/spaces/{spaceId}/change-requests/{changeRequestId}"),
  });
