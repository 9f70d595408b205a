/** Checks of GitBook's JSON document (its types are `@quire/api-types`', shared with the app); `document.ts` converts it. */
import type { JSONDocument } from "@quire/api-types";

/** What converting a document to Markdown gave: the Markdown, or why the document is not one Quire can store. */
export type MarkdownOutcome = { markdown: string } | { invalid: string };

/** How deeply a document nests its nodes, found without recursion (a check made before converting it). */
export function documentDepth(document: JSONDocument): number {
  let deepest = 0;
  const stack: { nodes: readonly unknown[]; depth: number }[] = [{ nodes: document.nodes ?? [], depth: 1 }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    deepest = Math.max(deepest, entry.depth);
    for (const node of entry.nodes) {
      if (typeof node !== "object" || node === null) continue;
      const { nodes, fragments } = node as { nodes?: unknown; fragments?: unknown };
      if (Array.isArray(nodes)) stack.push({ nodes, depth: entry.depth + 1 });
      if (Array.isArray(fragments)) stack.push({ nodes: fragments, depth: entry.depth + 1 });
    }
  }
  return deepest;
}
