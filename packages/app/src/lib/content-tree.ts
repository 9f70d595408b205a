/** What the navigation needs of a collection or a space. */
export interface ContentItem {
  id: string;
  title: string;
  parent?: string;
  href: string;
  /** Whether the person may rename, move and delete it. */
  manageable?: boolean;
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

/** What moving needs of a collection, a space or a page: which one, and where it is now. */
export interface Placed {
  /** A space holds nothing; a collection holds others, and so does a page (its child pages). */
  kind: ContentNode["kind"] | "page";
  id: string;
  parent?: string;
}

/** A collection an item can move into, named by its path of titles ("Outer › Inner"). */
export interface MoveTarget {
  id: string;
  label: string;
}

/** What an item can move into holds of itself: which one, its title and where it is. */
export type Holder = Pick<ContentItem, "id" | "title" | "parent">;

/** The collections above `id`, nearest first (stops at a cycle or a parent it cannot see). */
function ancestorsOf(collections: readonly Holder[], id: string): Holder[] {
  const byId = new Map(collections.map((c) => [c.id, c]));
  const found: Holder[] = [];
  for (let at = byId.get(id)?.parent; at !== undefined && at !== id && !found.some((c) => c.id === at); ) {
    const parent = byId.get(at);
    if (!parent) break;
    found.push(parent);
    at = parent.parent;
  }
  return found;
}

/**
 * Whether `moving` can go into the collection `target` (undefined: the top level): not where it already
 * is, and a collection never into itself or anything it holds.
 */
export function canMoveInto(
  collections: readonly Holder[],
  moving: Placed,
  target: string | undefined,
): boolean {
  if (target === moving.parent) return false;
  if (target === undefined || moving.kind === "space") return true;
  return target !== moving.id && !ancestorsOf(collections, target).some((c) => c.id === moving.id);
}

/** The collections `moving` can go into, by path of titles, besides where it already is. */
export function moveTargets(collections: readonly Holder[], moving: Placed): MoveTarget[] {
  return collections
    .filter((c) => c.id === moving.parent || canMoveInto(collections, moving, c.id))
    .map((c) => ({
      id: c.id,
      label: [...ancestorsOf(collections, c.id).reverse(), c].map((a) => a.title).join(" › "),
    }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** What the cached lists hold of an item: its id, title and place, with whatever else the API gave. */
type Listed = Omit<ContentItem, "href" | "manageable">;

/** `items` with `id` retitled. */
export const retitled = <T extends Listed>(items: readonly T[], id: string, title: string): T[] =>
  items.map((item) => (item.id === id ? { ...item, title } : item));

/** `items` with `id` moved under `parent` (undefined: the top level, as an absent `parent` is). */
export const moved = <T extends Listed>(items: readonly T[], id: string, parent: string | undefined): T[] =>
  items.map((item) => (item.id === id ? { ...item, parent } : item));

/** `items` without `id`; what it held (`parent` = id) moves up to `parent`, as a deleted collection's does. */
export const removed = <T extends Listed>(items: readonly T[], id: string, parent: string | undefined): T[] =>
  items.filter((item) => item.id !== id).map((item) => (item.parent === id ? { ...item, parent } : item));
