import { formatPatch, OMIT_HEADERS, structuredPatch } from "diff";

/** Lines of unchanged text shown around each change, as `git diff` shows them. */
const CONTEXT_LINES = 3;

/**
 * The line changes from `before` to `after` as unified-diff hunks (`@@ -1,3 +1,4 @@` and the lines),
 * without file headers; "" when the texts are the same. Runs in the content pool (see
 * `ContentEngine.textDiff`): a diff's time grows with the texts and their differences.
 */
export function unifiedDiff({ before, after }: { before: string; after: string }): string {
  if (before === after) return "";
  return formatPatch(
    structuredPatch("", "", before, after, "", "", { context: CONTEXT_LINES }),
    OMIT_HEADERS,
  );
}
