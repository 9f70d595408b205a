import type { DocumentBlock, JSONDocument } from "@quire/client";
import { diff3Merge } from "node-diff3";

/**
 * Two people's edits of one page, put together when they touch different blocks: `base` is the
 * document both started from, `mine` what this editor holds, `theirs` what the server holds now. A
 * three-way merge of their top-level blocks, each block one "line" (its JSON: the server's documents
 * carry no keys to match by, and a block left as it was keeps its JSON exactly). Undefined when the
 * edits meet, as Git's lines do: one block changed on both sides, or changes next to each other.
 */
export function mergeBlocks(
  base: JSONDocument,
  mine: JSONDocument,
  theirs: JSONDocument,
): JSONDocument | undefined {
  const blocks = new Map<string, DocumentBlock>();
  const lines = (document: JSONDocument) =>
    document.nodes.map((block) => {
      const line = JSON.stringify(block);
      blocks.set(line, block);
      return line;
    });
  const regions = diff3Merge(lines(mine), lines(base), lines(theirs));
  if (regions.some((region) => region.conflict)) return undefined;
  const merged = regions.flatMap((region) => region.ok ?? []);
  return { ...theirs, nodes: merged.map((line) => blocks.get(line) as DocumentBlock) };
}
