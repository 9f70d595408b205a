import type { DocumentBlock, JSONDocument } from "./model/document.js";

/**
 * Two people's edits of one page, put together when they touch different blocks: `base` is the
 * document both started from, `mine` what this editor holds, `theirs` what the server holds now. The
 * top-level blocks are matched by key. Their version is kept, with each block only I changed
 * replaced by mine. Undefined when the edits meet: a block both changed, a block one side added
 * or removed, a block without a key (nothing to match it by): the writer chooses then.
 */
export function mergeBlocks(
  base: JSONDocument,
  mine: JSONDocument,
  theirs: JSONDocument,
): JSONDocument | undefined {
  const baseBlocks = byKey(base.nodes);
  const mineBlocks = byKey(mine.nodes);
  const theirBlocks = byKey(theirs.nodes);
  if (!baseBlocks || !mineBlocks || !theirBlocks) return undefined;
  if (!sameKeys(baseBlocks, mineBlocks) || !sameKeys(baseBlocks, theirBlocks)) return undefined;
  const changed = (side: Map<string, string>) =>
    new Set([...side].filter(([key, json]) => baseBlocks.get(key) !== json).map(([key]) => key));
  const mineChanged = changed(mineBlocks);
  const theirsChanged = changed(theirBlocks);
  if ([...mineChanged].some((key) => theirsChanged.has(key))) return undefined;
  const mineByKey = new Map(mine.nodes.map((block) => [block.key, block]));
  return {
    ...theirs,
    nodes: theirs.nodes.map((block) =>
      block.key !== undefined && mineChanged.has(block.key) ? (mineByKey.get(block.key) ?? block) : block,
    ),
  };
}

/** Each top-level block's JSON by its key, in order; undefined when one has no key or shares one. */
function byKey(blocks: readonly DocumentBlock[]): Map<string, string> | undefined {
  const map = new Map<string, string>();
  for (const block of blocks) {
    if (block.key === undefined || map.has(block.key)) return undefined;
    map.set(block.key, JSON.stringify(block));
  }
  return map;
}

/** The same keys in the same order: no block added, removed or moved. */
function sameKeys(a: Map<string, string>, b: Map<string, string>): boolean {
  const others = [...b.keys()];
  return a.size === b.size && [...a.keys()].every((key, i) => others[i] === key);
}
