import { unwrap } from "@quire/client";
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchClient } from "../../api/client.js";
import { type ContentItem, type ContentNode, moved, removed, retitled } from "../../lib/content-tree.js";

export type Kind = ContentNode["kind"];

/** A collection or a space an action is on. */
export interface Target {
  kind: Kind;
  id: string;
  title: string;
  parent?: string;
}

/** An action the server refused (its change already undone on screen), to tell in words. */
export interface Failure {
  action: "rename" | "move" | "delete" | "restore";
  id: string;
  title: string;
  error: unknown;
}

/** The organization's lists of each kind: every cached page and organization is under this prefix. */
const LISTS = {
  collection: ["get", "/v1/orgs/{organizationId}/collections"],
  space: ["get", "/v1/orgs/{organizationId}/spaces"],
} as const;

/** The organization's deleted spaces, which deleting or restoring a space changes. */
const DELETED_SPACES = ["get", "/v1/orgs/{organizationId}/deleted-spaces"] as const;

/** One item of each kind, as the screens of a collection or a space read it. */
const ONE = {
  collection: ["get", "/v1/collections/{collectionId}"],
  space: ["get", "/v1/spaces/{spaceId}"],
} as const;

type Listed = Omit<ContentItem, "href">;
type Snapshot = [QueryKey, unknown][];

/**
 * Renames, moves, deletes and restores collections and spaces. Rename, move and delete change the cached
 * lists at once (what the navigation shows) and put them back if the server refuses; `onFailure` then
 * tells why. `onDeleted` hears of a deleted space, which can be restored.
 */
export function useContentActions({
  onFailure,
  onDeleted,
}: {
  onFailure: (failure: Failure) => void;
  onDeleted: (space: Target) => void;
}) {
  const queryClient = useQueryClient();

  /** Applies `change` to every cached list of `kinds`, and returns what they held before. */
  const change = async (kinds: readonly Kind[], update: (items: readonly Listed[]) => Listed[]) => {
    const snapshot: Snapshot = [];
    for (const kind of kinds) {
      await queryClient.cancelQueries({ queryKey: LISTS[kind] });
      snapshot.push(...queryClient.getQueriesData({ queryKey: LISTS[kind] }));
      // Only the every-page lists are arrays; a single page's body under the same prefix is left as it is.
      queryClient.setQueriesData<readonly Listed[]>({ queryKey: LISTS[kind] }, (data) =>
        Array.isArray(data) ? update(data) : data,
      );
    }
    return snapshot;
  };
  const rollback = (snapshot: Snapshot | undefined) => {
    for (const [key, data] of snapshot ?? []) queryClient.setQueryData(key, data);
  };
  const refresh = (kinds: readonly Kind[]) =>
    Promise.all(
      kinds.flatMap((kind) => [
        queryClient.invalidateQueries({ queryKey: LISTS[kind] }),
        queryClient.invalidateQueries({ queryKey: ONE[kind] }),
        ...(kind === "space" ? [queryClient.invalidateQueries({ queryKey: DELETED_SPACES })] : []),
      ]),
    );
  const failed = (action: Failure["action"]) => (error: unknown, item: Target, snapshot?: Snapshot) => {
    rollback(snapshot);
    onFailure({ action, id: item.id, title: item.title, error });
  };

  const rename = useMutation({
    mutationFn: async ({ item, title }: { item: Target; title: string }) => {
      if (item.kind === "space")
        await unwrap(
          fetchClient.PATCH("/v1/spaces/{spaceId}", {
            params: { path: { spaceId: item.id } },
            body: { title },
          }),
        );
      else
        await unwrap(
          fetchClient.PATCH("/v1/collections/{collectionId}", {
            params: { path: { collectionId: item.id } },
            body: { title },
          }),
        );
    },
    onMutate: ({ item, title }) => change([item.kind], (items) => retitled(items, item.id, title)),
    onError: (error, { item }, snapshot) => failed("rename")(error, item, snapshot),
    onSettled: (_data, _error, { item }) => refresh([item.kind]),
  });

  const move = useMutation({
    mutationFn: async ({ item, parent }: { item: Target; parent: string | undefined }) => {
      // The contract's null is the top level.
      const body = { parent: parent ?? null };
      if (item.kind === "space")
        await unwrap(
          fetchClient.POST("/v1/spaces/{spaceId}/move", { params: { path: { spaceId: item.id } }, body }),
        );
      else
        await unwrap(
          fetchClient.POST("/v1/collections/{collectionId}/move", {
            params: { path: { collectionId: item.id } },
            body,
          }),
        );
    },
    onMutate: ({ item, parent }) => change([item.kind], (items) => moved(items, item.id, parent)),
    onError: (error, { item }, snapshot) => failed("move")(error, item, snapshot),
    onSettled: (_data, _error, { item }) => refresh([item.kind]),
  });

  // A deleted collection's spaces and collections move up to its parent: both lists change.
  const kindsChangedByDeleting = (kind: Kind): Kind[] =>
    kind === "space" ? ["space"] : ["collection", "space"];
  const remove = useMutation({
    mutationFn: ({ kind, id }: Target) =>
      kind === "space"
        ? unwrap(fetchClient.DELETE("/v1/spaces/{spaceId}", { params: { path: { spaceId: id } } }))
        : unwrap(
            fetchClient.DELETE("/v1/collections/{collectionId}", { params: { path: { collectionId: id } } }),
          ),
    onMutate: ({ kind, id, parent }) =>
      change(kindsChangedByDeleting(kind), (items) => removed(items, id, parent)),
    onError: (error, item, snapshot) => failed("delete")(error, item, snapshot),
    onSuccess: (_data, item) => {
      if (item.kind === "space") onDeleted(item);
    },
    onSettled: (_data, _error, { kind }) => refresh(kindsChangedByDeleting(kind)),
  });

  const restore = useMutation({
    mutationFn: ({ id }: Target) =>
      unwrap(fetchClient.POST("/v1/spaces/{spaceId}/restore", { params: { path: { spaceId: id } } })),
    onError: (error, item) => failed("restore")(error, item),
    onSettled: () => refresh(["space"]),
  });

  return {
    rename: (item: Target, title: string) => rename.mutate({ item, title }),
    move: (item: Target, parent: string | undefined) => move.mutate({ item, parent }),
    remove: (item: Target) => remove.mutate(item),
    restore: (space: Target, done: () => void) => restore.mutate(space, { onSuccess: done }),
    restoring: restore.isPending,
  };
}
