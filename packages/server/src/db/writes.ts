import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";

/** What only reads: a statement of another kind (insert, update, delete, raw SQL) counts as a write. */
const READS = new Set<RootOperationNode["kind"]>(["SelectQueryNode"]);

/**
 * Counts the writes sent to one database by this process, as each is sent and again once it has
 * answered, so that a cache of what was read from it can tell that nothing was written here since
 * it read (see `writesTo`). Raw SQL counts as a write, whatever it does: a cache may read again
 * more often than it needs to, never less.
 */
export class WriteCounter implements KyselyPlugin {
  count = 0;
  readonly #writes = new WeakSet<object>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (!READS.has(node.kind)) {
      this.count++;
      this.#writes.add(queryId);
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    // Again once answered: a reader that looked while the write ran saw the count before this.
    if (this.#writes.has(queryId)) this.count++;
    return result;
  }
}
