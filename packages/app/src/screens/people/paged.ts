import { type InfiniteData, type QueryKey, useInfiniteQuery } from "@tanstack/react-query";

/** One page of any of the contract's lists. */
export interface Page<Item> {
  items: Item[];
  count: number;
  next?: { page: string };
}

/** Marks a cache key as holding pages read as the person scrolls (`InfiniteData`), not one page's body. */
const PAGED = { pages: "infinite" } as const;

/** Whether a cache key is one of `usePages`'s (its data is `InfiniteData`). */
export const isPagedKey = (key: QueryKey): boolean => {
  const last = key[key.length - 1];
  return typeof last === "object" && last !== null && "pages" in last && last.pages === PAGED.pages;
};

/**
 * A list read a page at a time, following the API's `next.page`. `key` is the contract's
 * `[method, path, init]` (so invalidating by its `[method, path]` prefix reaches it).
 */
export function usePages<Item>(
  key: QueryKey,
  fetchPage: (
    page: string | undefined,
    signal: AbortSignal,
  ) => Promise<{ data?: Page<Item>; error?: unknown }>,
) {
  return useInfiniteQuery<Page<Item>, unknown, InfiniteData<Page<Item>>, QueryKey, string | undefined>({
    queryKey: [...key, PAGED],
    initialPageParam: undefined,
    queryFn: async ({ pageParam, signal }) => {
      const { data, error } = await fetchPage(pageParam, signal);
      if (!data) throw error;
      return data;
    },
    getNextPageParam: (last) => last.next?.page,
  });
}

/** Every item loaded so far, in order. */
export const loadedItems = <Item>(data: InfiniteData<Page<Item>> | undefined): Item[] =>
  data?.pages.flatMap((page) => page.items) ?? [];
