import { badRequest } from "../http/errors.js";
import { DEFAULT_PAGE_SIZE, type PageQuery } from "../http/paging.js";

/**
 * One page of a list computed in memory (links are resolved per request, not stored per revision),
 * with an opaque cursor holding the offset of the next item.
 */
export function pageOf<T>(items: readonly T[], query: PageQuery) {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  let offset = 0;
  if (query.page !== undefined) {
    const decoded: unknown = (() => {
      try {
        return JSON.parse(Buffer.from(query.page, "base64url").toString("utf8"));
      } catch {
        return undefined;
      }
    })();
    if (
      !Array.isArray(decoded) ||
      decoded.length !== 1 ||
      !Number.isSafeInteger(decoded[0]) ||
      decoded[0] < 0
    )
      throw badRequest("The page cursor is not valid.");
    offset = decoded[0] as number;
  }
  const end = offset + limit;
  return {
    items: items.slice(offset, end),
    count: items.length,
    // No next page after an empty one (limit=0 counts): it would name the same offset for ever.
    ...(limit > 0 &&
      end < items.length && { next: { page: Buffer.from(JSON.stringify([end])).toString("base64url") } }),
  };
}
