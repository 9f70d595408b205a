import type {
  DocumentBlock,
  DocumentFragment,
  DocumentInline,
  DocumentLeaf,
  DocumentMark,
  DocumentNode,
  DocumentText,
  JSONDocument,
} from "@quire/client";
import { type Attrs, Fragment, Mark, type Node as PMNode } from "prosemirror-model";
import { BLOCK_KINDS, type BlockName, INLINE_KINDS, MARK_KINDS, schema } from "./schema.js";

/**
 * GitBook's JSON document to the editor's ProseMirror document and back, so that
 * `fromEditor(toEditor(d))` is `d` (convert.test.ts): every field a node does not read is kept in its
 * `extra`, every kind the schema does not know, or a node the schema cannot hold as it is (a list holding
 * a paragraph), is an opaque node with its JSON. Text is the one place ProseMirror normalizes: it joins
 * adjacent leaves of the same marks and has no empty text; so a block of text keeps the JSON its text came
 * from (`source`), written back while the text is the same (same characters, marks and links), and only
 * a block whose text was edited gets its text written anew, one leaf per run of the same marks.
 *
 * The JSON given back shares the unchanged parts with the JSON given (read it, do not change it).
 */

type Json = Record<string, unknown>;
/** What a node reads of its JSON's fields, by name: a field that fails its check is kept as it is, unread. */
type Checks = Record<string, (value: unknown) => boolean>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown) => typeof value === "string";
const isBoolean = (value: unknown) => typeof value === "boolean";
const isList = (value: unknown) => Array.isArray(value);
const is = (expected: string) => (value: unknown) => value === expected;

const BLOCK_FIELDS: Checks = {
  object: is("block"),
  type: isString,
  key: isString,
  data: isObject,
  meta: isObject,
  isVoid: isBoolean,
};
const INLINE_FIELDS: Checks = {
  object: is("inline"),
  type: isString,
  key: isString,
  data: isObject,
  isVoid: isBoolean,
};
const FRAGMENT_FIELDS: Checks = {
  object: is("fragment"),
  key: isString,
  fragment: isString,
  type: isString,
  nodes: isList,
};
const MARK_FIELDS: Checks = { object: is("mark"), type: isString, data: isObject };
const DOCUMENT_FIELDS: Checks = { object: is("document"), data: isObject, nodes: isList };

/** `json`'s fields that `checks` reads and that pass, and the others (`extra`, null when there are none). */
function split(json: Json, checks: Checks): { read: Json; extra: Json | null } {
  const read: [string, unknown][] = [];
  const extra: [string, unknown][] = [];
  for (const [name, value] of Object.entries(json))
    (Object.hasOwn(checks, name) && checks[name]?.(value) ? read : extra).push([name, value]);
  // Built from entries: a field named `__proto__` stays a field.
  return { read: Object.fromEntries(read), extra: extra.length > 0 ? Object.fromEntries(extra) : null };
}

/** The attributes of `names` that are set (not null), as the JSON's fields. */
function fields(attrs: Attrs, names: readonly string[]): Json {
  return Object.fromEntries(names.flatMap((name) => (attrs[name] === null ? [] : [[name, attrs[name]]])));
}

const attr = (attrs: Attrs, name: string): unknown => attrs[name];
const extraOf = (attrs: Attrs): Json | null => {
  const extra = attr(attrs, "extra");
  return isObject(extra) ? extra : null;
};

const BLOCK_OF_TYPE = new Map<string, { name: BlockName; level?: number }>([
  ...Object.entries(BLOCK_KINDS).flatMap(([name, kind]) =>
    name === "heading" ? [] : [[kind.type, { name: name as BlockName }] as const],
  ),
  ...[1, 2, 3].map((level) => [`heading-${level}`, { name: "heading" as const, level }] as const),
]);
const INLINE_OF_TYPE = new Map<string, keyof typeof INLINE_KINDS>(
  Object.entries(INLINE_KINDS).map(([name, type]) => [type, name as keyof typeof INLINE_KINDS]),
);
const MARK_OF_TYPE = new Map<string, keyof typeof MARK_KINDS>(
  Object.entries(MARK_KINDS).map(([name, type]) => [type, name as keyof typeof MARK_KINDS]),
);

// ---------------------------------------------------------------------------------------------------
// Document → editor

export function toEditor(document: JSONDocument): PMNode {
  const { read, extra } = split(document as unknown as Json, DOCUMENT_FIELDS);
  const nodes = read.nodes as unknown[] | undefined;
  return schema.nodes.doc.create(
    { data: read.data ?? null, extra, noNodes: nodes === undefined },
    (nodes ?? []).map(toBlock),
  );
}

/** A node made only when its content is what its kind holds. */
function checked(name: string, attrs: Json, content: readonly PMNode[]): PMNode | undefined {
  const type = schema.nodes[name];
  const fragment = Fragment.fromArray(content as PMNode[]);
  return type?.validContent(fragment) ? type.create(attrs, fragment) : undefined;
}

const opaque = (json: unknown) => schema.nodes.opaque.create({ json });

function toBlock(json: unknown): PMNode {
  const found =
    isObject(json) && json.object === "block" && typeof json.type === "string"
      ? BLOCK_OF_TYPE.get(json.type)
      : undefined;
  return (found && isObject(json) && blockNode(json, found.name, found.level)) || opaque(json);
}

function blockNode(json: Json, name: BlockName, level?: number): PMNode | undefined {
  const { part } = BLOCK_KINDS[name];
  const list = part === "fragments" ? "fragments" : part === "none" ? undefined : "nodes";
  const { read, extra } = split(json, list ? { ...BLOCK_FIELDS, [list]: isList } : BLOCK_FIELDS);
  const attrs: Json = {
    key: read.key ?? null,
    data: read.data ?? null,
    meta: read.meta ?? null,
    isVoid: read.isVoid ?? null,
    extra,
    ...(level !== undefined && { level }),
  };
  const items = list ? (read[list] as unknown[] | undefined) : undefined;
  switch (part) {
    case "inline": {
      const source = items ?? [];
      const content = inlineNodes(source);
      if (!content) return undefined;
      const node = checked(name, { ...attrs, noNodes: items === undefined, source }, content);
      if (node) parsed.set(source, node.content);
      return node;
    }
    case "blocks":
      return checked(name, { ...attrs, noNodes: items === undefined }, (items ?? []).map(toBlock));
    case "fragments": {
      const fragments = (items ?? []).map(toFragment);
      if (!fragments.every((f) => f !== undefined)) return undefined;
      return checked(name, { ...attrs, noFragments: items === undefined }, fragments);
    }
    case "none":
      return checked(name, attrs, []);
  }
}

function toFragment(json: unknown): PMNode | undefined {
  if (!isObject(json) || json.object !== "fragment" || !Array.isArray(json.nodes)) return undefined;
  const { read, extra } = split(json, FRAGMENT_FIELDS);
  return checked(
    "fragment",
    { key: read.key ?? null, fragment: read.fragment ?? null, type: read.type ?? null, extra },
    json.nodes.map(toBlock),
  );
}

/**
 * The text and inlines of a block, or undefined when they are not what a block of text holds. A link's
 * text has the link as a mark; a link the mark cannot stand for (with no text, or holding a link) is an
 * opaque inline.
 */
function inlineNodes(items: readonly unknown[]): PMNode[] | undefined {
  const out: PMNode[] = [];
  let links = 0;
  const add = (list: readonly unknown[], link: Mark | undefined): boolean => {
    for (const json of list) {
      if (!isObject(json)) return false;
      if (json.object === "text") {
        const texts = textNodes(json, link);
        if (!texts) return false;
        out.push(...texts);
        continue;
      }
      if (json.object !== "inline" || typeof json.type !== "string") return false;
      const before = out.length;
      if (link === undefined && json.type === "link" && Array.isArray(json.nodes) && !holdsLink(json.nodes)) {
        if (!add(json.nodes, linkMark(json, links++))) return false;
        if (out.length > before) continue;
      }
      out.push(inlineAtom(json, link));
    }
    return true;
  };
  return add(items, undefined) ? out : undefined;
}

function holdsLink(nodes: readonly unknown[]): boolean {
  return nodes.some(
    (node) =>
      isObject(node) &&
      ((node.object === "inline" && node.type === "link") ||
        (Array.isArray(node.nodes) && holdsLink(node.nodes))),
  );
}

function linkMark(json: Json, instance: number): Mark {
  const { read, extra } = split(json, { ...INLINE_FIELDS, nodes: isList });
  return schema.marks.link.create({
    key: read.key ?? null,
    data: read.data ?? null,
    isVoid: read.isVoid ?? null,
    extra,
    instance,
  });
}

function inlineAtom(json: Json, link: Mark | undefined): PMNode {
  const marks = link ? [link] : [];
  const name = INLINE_OF_TYPE.get(json.type as string);
  if (!name) return schema.nodes.opaque_inline.create({ json }, null, marks);
  const { read, extra } = split(json, INLINE_FIELDS);
  return schema.nodes[name].create(
    { key: read.key ?? null, data: read.data ?? null, isVoid: read.isVoid ?? null, extra },
    null,
    marks,
  );
}

function textNodes(json: Json, link: Mark | undefined): PMNode[] | undefined {
  if (!Array.isArray(json.leaves)) return undefined;
  const out: PMNode[] = [];
  for (const leaf of json.leaves) {
    if (!isObject(leaf) || typeof leaf.text !== "string") return undefined;
    const marks = leaf.marks === undefined ? [] : leaf.marks;
    if (!Array.isArray(marks)) return undefined;
    let set = link ? [link] : Mark.none;
    for (const json of marks) {
      const mark = toMark(json);
      if (!mark) return undefined;
      set = mark.addToSet(set);
    }
    if (leaf.text !== "") out.push(schema.text(leaf.text, set));
  }
  return out;
}

function toMark(json: unknown): Mark | undefined {
  if (!isObject(json) || typeof json.type !== "string") return undefined;
  const { read, extra } = split(json, MARK_FIELDS);
  const data = read.data ?? null;
  const name = MARK_OF_TYPE.get(json.type);
  return name
    ? schema.marks[name].create({ data, extra })
    : schema.marks.other_mark.create({ type: json.type, data, extra });
}

// ---------------------------------------------------------------------------------------------------
// Editor → document

export function fromEditor(doc: PMNode): JSONDocument {
  const nodes =
    doc.childCount > 0 || doc.attrs.noNodes !== true ? { nodes: children(doc).map(fromBlock) } : {};
  return {
    object: "document",
    ...fields(doc.attrs, ["data"]),
    ...extraOf(doc.attrs),
    ...nodes,
  } as JSONDocument;
}

function children(node: PMNode): PMNode[] {
  const out: PMNode[] = [];
  node.forEach((child) => {
    out.push(child);
  });
  return out;
}

function fromBlock(node: PMNode): DocumentBlock {
  if (node.type === schema.nodes.opaque) return attr(node.attrs, "json") as DocumentBlock;
  const name = node.type.name as BlockName;
  const { attrs } = node;
  const { part, type } = BLOCK_KINDS[name];
  const out: DocumentBlock = {
    object: "block",
    type: name === "heading" ? `${type}${attr(attrs, "level")}` : type,
    ...fields(attrs, ["key", "data", "meta", "isVoid"]),
    ...extraOf(attrs),
  };
  const empty = node.childCount === 0;
  switch (part) {
    case "inline": {
      const nodes = textBlockNodes(node);
      if (nodes) out.nodes = nodes;
      break;
    }
    case "blocks":
      if (!empty || attrs.noNodes !== true) out.nodes = children(node).map(fromBlock);
      break;
    case "fragments":
      if (!empty || attrs.noFragments !== true) out.fragments = children(node).map(fromFragment);
      break;
    case "none":
      break;
  }
  return out;
}

function fromFragment(node: PMNode): DocumentFragment {
  return {
    object: "fragment",
    ...fields(node.attrs, ["key", "fragment", "type"]),
    ...extraOf(node.attrs),
    nodes: children(node).map(fromBlock),
  };
}

/** What each block of text's `source` gives in the editor, found once (when the block is made, mostly). */
const parsed = new WeakMap<readonly unknown[], Fragment | null>();

function textBlockNodes(node: PMNode): DocumentNode[] | undefined {
  const source = attr(node.attrs, "source");
  if (node.childCount === 0 && node.attrs.noNodes === true) return undefined;
  if (Array.isArray(source)) {
    let given = parsed.get(source);
    if (given === undefined) {
      const nodes = inlineNodes(source);
      given = nodes ? Fragment.fromArray(nodes) : null;
      parsed.set(source, given);
    }
    // The same fragment while the text is untouched: ProseMirror keeps what a step does not change.
    if (given && (given === node.content || given.eq(node.content))) return source as DocumentNode[];
  }
  return inlineJson(children(node));
}

const linkOf = (node: PMNode): Mark | undefined => node.marks.find((m) => m.type === schema.marks.link);

/** Text and inlines anew: each link's run of nodes one link; text between inlines one text, a leaf per node. */
function inlineJson(nodes: readonly PMNode[]): (DocumentText | DocumentInline)[] {
  const out: (DocumentText | DocumentInline)[] = [];
  for (let i = 0; i < nodes.length; ) {
    const link = linkOf(nodes[i] as PMNode);
    let end = i + 1;
    while (end < nodes.length && sameLink(link, linkOf(nodes[end] as PMNode))) end++;
    const run = nodes.slice(i, end);
    if (link)
      out.push({
        object: "inline",
        type: "link",
        ...fields(link.attrs, ["key", "data", "isVoid"]),
        ...extraOf(link.attrs),
        nodes: plainJson(run),
      });
    else out.push(...plainJson(run));
    i = end;
  }
  return out;
}

const sameLink = (a: Mark | undefined, b: Mark | undefined) => (a && b ? a.eq(b) : a === b);

function plainJson(nodes: readonly PMNode[]): (DocumentText | DocumentInline)[] {
  const out: (DocumentText | DocumentInline)[] = [];
  let text: DocumentText | undefined;
  for (const node of nodes) {
    if (node.isText) {
      if (!text) {
        text = { object: "text", leaves: [] };
        out.push(text);
      }
      text.leaves.push(leafJson(node));
    } else {
      text = undefined;
      out.push(inlineAtomJson(node));
    }
  }
  return out;
}

function leafJson(node: PMNode): DocumentLeaf {
  return {
    object: "leaf",
    text: node.text ?? "",
    marks: node.marks.filter((mark) => mark.type !== schema.marks.link).map(markJson),
  };
}

function markJson(mark: Mark): DocumentMark {
  const name = mark.type.name;
  const type =
    name === "other_mark" ? String(attr(mark.attrs, "type")) : MARK_KINDS[name as keyof typeof MARK_KINDS];
  return { object: "mark", type, ...fields(mark.attrs, ["data"]), ...extraOf(mark.attrs) };
}

/** An inline atom's JSON; marks on it (but its link) are none of GitBook's: an inline has none. */
function inlineAtomJson(node: PMNode): DocumentInline {
  if (node.type === schema.nodes.opaque_inline) return attr(node.attrs, "json") as DocumentInline;
  return {
    object: "inline",
    type: INLINE_KINDS[node.type.name as keyof typeof INLINE_KINDS],
    ...fields(node.attrs, ["key", "data", "isVoid"]),
    ...extraOf(node.attrs),
  };
}
