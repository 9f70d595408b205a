import type { ReactNode } from "react";
import { ErrorView, Loading } from "./ErrorView.js";

/** What a list needs of its query: an openapi-react-query read of a page of items. */
export interface ItemsQuery<Item> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: { items: readonly Item[] } | undefined;
}

/** A list read from the API: loading, its error, `empty` when it has none, else each `item`. */
export function ItemList<Item>({
  query,
  empty,
  item,
  className,
}: {
  query: ItemsQuery<Item>;
  empty: string;
  className: string;
  /** An item's `<li>`, with its key. */
  item(item: Item, index: number): ReactNode;
}) {
  return (
    <>
      {query.isPending && <Loading />}
      {query.isError && <ErrorView error={query.error} />}
      {query.data?.items.length === 0 && <p>{empty}</p>}
      {query.data && query.data.items.length > 0 && (
        <ul className={className}>{query.data.items.map(item)}</ul>
      )}
    </>
  );
}
