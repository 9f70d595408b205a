/** What the navigation needs of a collection or a space. */
export interface ContentItem {
  id: string;
  title: string;
  parent?: string;
  href: string;
}

/** A collection with what it holds, or a space (no children). */
export interface ContentNode {
  kind: "collection" | "space";
  item: ContentItem;
  children: ContentNode[];
}

const byTitle = (a: ContentNode, b: ContentNode) =>
  a.item.title.localeCompare(b.item.title) || a.item.id.localeCompare(b.item.id);

/**
 * The organization's content as a tree: collections hold their sub-collections and spaces (by
 * `parent`); collections first, then spaces, each by title. Anything whose parent is not listed (hidden
 * from this person, or not loaded) stays at the top level, so nothing visible is lost.
 */
export function contentTree(
  collections: readonly ContentItem[],
  spaces: readonly ContentItem[],
): ContentNode[] {
  const nodes = new Map<string, ContentNode>();
  for (const item of collections) nodes.set(item.id, { kind: "collection", item, children: [] });
  const roots: ContentNode[] = [];
  const place = (node: ContentNode) => {
    const parent = node.item.parent === undefined ? undefined : nodes.get(node.item.parent);
    // A collection cannot hold itself; a cycle in the data would leave its members at the top.
    if (parent && parent !== node && !holds(node, parent)) parent.children.push(node);
    else roots.push(node);
  };
  for (const node of nodes.values()) place(node);
  for (const item of spaces) place({ kind: "space", item, children: [] });
  const order = (list: ContentNode[]): ContentNode[] => {
    const sorted = [
      ...list.filter((n) => n.kind === "collection").sort(byTitle),
      ...list.filter((n) => n.kind === "space").sort(byTitle),
    ];
    for (const node of sorted) node.children = order(node.children);
    return sorted;
  };
  return order(roots);
}

/** Whether `node` already holds `other`, however deep. */
function holds(node: ContentNode, other: ContentNode): boolean {
  return node.children.some((child) => child === other || holds(child, other));
}
