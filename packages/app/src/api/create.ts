import { useQueryClient } from "@tanstack/react-query";
import { $api } from "./client.js";

/** What a "New …" dialog needs of its mutation, whatever the kind of item it creates. */
export interface Creator {
  /** Creates an item titled `title`; `done` runs once it exists (and its list is refreshed). */
  create(title: string, done: () => void): void;
  pending: boolean;
  error: unknown;
  reset(): void;
}

const COLLECTIONS = "/v1/orgs/{organizationId}/collections";
const SPACES = "/v1/orgs/{organizationId}/spaces";

/**
 * Creates a collection or a space (`path`) in the organization, inside the collection `parent` if
 * given, then refreshes every cached list of them: the contract's `[method, path]` prefix covers every
 * page and organization of the list.
 */
function useCreateIn(
  path: typeof COLLECTIONS | typeof SPACES,
  organizationId: string,
  parent: string | undefined,
): Creator {
  const queryClient = useQueryClient();
  const mutation = $api.useMutation("post", path, {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["get", path] }),
  });
  return {
    create: (title, done) =>
      mutation.mutate({ params: { path: { organizationId } }, body: { title, parent } }, { onSuccess: done }),
    pending: mutation.isPending,
    error: mutation.error,
    reset: mutation.reset,
  };
}

export const useCreateCollection = (organizationId: string, parent?: string) =>
  useCreateIn(COLLECTIONS, organizationId, parent);
export const useCreateSpace = (organizationId: string, parent?: string) =>
  useCreateIn(SPACES, organizationId, parent);
