import type { JSONDocument } from "@quire/client";
import fc from "fast-check";

/**
 * GitBook documents for property tests: every block, inline and mark kind the schema has, kinds it does
 * not know, nested lists and fragments, optional fields present and absent, fields no node reads, and
 * leaves as GitBook may split them (empty ones, neighbours of the same marks, marks in any order).
 */

type Json = Record<string, unknown>;

/** Records as JSON has them: with Object's prototype (fast-check makes some without). */
const record = ((model: Record<string, fc.Arbitrary<unknown>>, constraints?: object) =>
  fc.record(model, { ...constraints, noNullPrototype: true })) as typeof fc.record;

// As JSON gives it back: fast-check's `-0` is `0` once stored.
const json = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
/** Fields no node reads, kept as they are (`__proto__` too). */
const extra = fc.dictionary(fc.constantFrom("origin", "x-extra", "__proto__"), json, {
  maxKeys: 2,
  noNullPrototype: true,
});
const key = fc.string({ minLength: 1, maxLength: 4 });
const word = fc.constantFrom("", "a", "Quire", "a b", "\n", "😀", "*x*", "é");
const ref = fc.oneof(
  record({ kind: fc.constant("url"), url: fc.constantFrom("https://x.test", "./a.md") }),
  record({ kind: fc.constant("page"), page: key }),
  record({ kind: fc.constant("anchor"), anchor: key }, { requiredKeys: ["kind", "anchor"] }),
  record({ kind: fc.constant("file"), file: key }),
);

/** `fields` with `object` and `type`, `key`, `meta` and fields no node reads sometimes. */
function node(
  object: string,
  type: fc.Arbitrary<string> | string,
  fields: Record<string, fc.Arbitrary<unknown>>,
) {
  const all: Record<string, fc.Arbitrary<unknown>> = {
    object: fc.constant(object),
    type: typeof type === "string" ? fc.constant(type) : type,
    key,
    ...(object === "block" && { meta: fc.constant({ id: "m" }) }),
    ...fields,
  };
  return fc
    .tuple(
      record(all, { requiredKeys: ["object", "type", ...Object.keys(fields).filter((f) => f !== "isVoid")] }),
      fc.option(extra, { nil: undefined, freq: 4 }),
    )
    .map(([value, more]): Json => ({ ...value, ...more }));
}

/** Like `node`, but `nodes` sometimes absent (as void blocks have it). */
function maybeNodes(
  object: string,
  type: string,
  fields: Record<string, fc.Arbitrary<unknown>>,
  nodes: fc.Arbitrary<unknown>,
) {
  return fc
    .tuple(node(object, type, fields), fc.option(nodes, { nil: undefined, freq: 5 }))
    .map(([value, list]) => (list === undefined ? value : { ...value, nodes: list }));
}

const mark = fc.oneof(
  record({
    object: fc.constant("mark"),
    type: fc.constantFrom("bold", "italic", "strikethrough", "code", "keyboard"),
  }),
  record({ object: fc.constant("mark"), type: fc.constant("color"), data: fc.constant({ text: "#f00" }) }),
  record(
    { object: fc.constant("mark"), type: fc.constantFrom("highlight", "underline"), data: json },
    { requiredKeys: ["object", "type"] },
  ),
  fc
    .tuple(fc.constantFrom("bold", "x-mark"), extra)
    .map(([type, more]) => ({ object: "mark", type, ...more })),
);
const leaf = record({ object: fc.constant("leaf"), text: word, marks: fc.array(mark, { maxLength: 3 }) });
const text = record(
  { object: fc.constant("text"), key, leaves: fc.array(leaf, { minLength: 0, maxLength: 4 }) },
  { requiredKeys: ["object", "leaves"] },
);
const plainText = word
  .filter((w) => w !== "")
  .map((w) => ({ object: "text", leaves: [{ object: "leaf", text: w, marks: [] }] }));

const atom = fc.oneof(
  node("inline", "emoji", { data: record({ code: fc.constantFrom("1f600", "2705") }), isVoid: fc.boolean() }),
  node("inline", "inline-image", {
    data: record({ ref, alt: word }, { requiredKeys: ["ref"] }),
    isVoid: fc.constant(true),
  }),
  node("inline", "inline-math", { data: record({ formula: word }), isVoid: fc.constant(true) }),
  node("inline", "mention", {
    data: record({ ref }),
    isVoid: fc.constant(true),
    nodes: fc.array(plainText, { maxLength: 1 }),
  }),
  // Kinds the schema does not know: opaque inlines.
  node("inline", "html", {
    data: record({ html: fc.constantFrom("<br>", "<sup>") }),
    isVoid: fc.constant(true),
  }),
  node("inline", "annotation", { data: json, nodes: fc.array(text, { maxLength: 2 }) }),
);
const link = (inner: fc.Arbitrary<unknown>) =>
  node("inline", "link", {
    data: record({ ref, literal: fc.constant(true) }, { requiredKeys: ["ref"] }),
    isVoid: fc.boolean(),
    nodes: fc.array(fc.oneof({ weight: 4, arbitrary: text }, atom, inner), { maxLength: 3 }),
  });
// A link within a link (GitBook's schema allows it) has no mark to stand for it: it is kept opaque.
const inline = fc.oneof(
  { weight: 4, arbitrary: text },
  atom,
  { weight: 2, arbitrary: link(text) },
  link(link(text)),
);
const inlines = fc.array(inline, { maxLength: 5 });

const styles = fc.constantFrom("info", "success", "warning", "danger");

const { block } = fc.letrec<{ block: Json; blocks: Json[] }>((tie) => {
  const blocks = tie("blocks");
  const item = (type: string, data: fc.Arbitrary<unknown>) => node("block", type, { data, nodes: blocks });
  const list = (type: string, data: fc.Arbitrary<unknown>, itemData: fc.Arbitrary<unknown>) =>
    node("block", type, { data, nodes: fc.array(item("list-item", itemData), { maxLength: 3 }) });
  const fragment = (name: fc.Arbitrary<string>, nodes: fc.Arbitrary<unknown>) =>
    record(
      { object: fc.constant("fragment"), key, fragment: name, type: name, nodes },
      { requiredKeys: ["object", "fragment", "nodes"] },
    );
  const paragraph = maybeNodes("block", "paragraph", { data: fc.constant({}) }, inlines);
  const caption = fc.array(fragment(fc.constant("caption"), fc.array(paragraph, { maxLength: 1 })), {
    maxLength: 1,
  });
  const image = node("block", "image", {
    data: record({ ref, alt: word }, { requiredKeys: ["ref"] }),
    isVoid: fc.constant(true),
    fragments: caption,
  });
  const voidBlock = (type: string, data: fc.Arbitrary<unknown>) =>
    maybeNodes("block", type, { data, isVoid: fc.constant(true) }, fc.constant([]));
  return {
    blocks: fc.array(tie("block"), { maxLength: 3 }),
    block: fc.oneof(
      { maxDepth: 3, depthIdentifier: "block" },
      { weight: 4, arbitrary: paragraph },
      maybeNodes(
        "block",
        "heading-1",
        { data: record({ id: fc.constant("an-anchor") }, { requiredKeys: [] }) },
        inlines,
      ),
      node("block", fc.constantFrom("heading-2", "heading-3"), {
        data: record({ level: fc.constantFrom(4, 5, 6) }, { requiredKeys: [] }),
        nodes: inlines,
      }),
      list("list-unordered", fc.constant({}), fc.constant({})),
      list("list-ordered", record({ start: fc.nat(9) }, { requiredKeys: [] }), fc.constant({})),
      list("list-tasks", fc.constant({}), record({ checked: fc.boolean() })),
      item("blockquote", fc.constant({})),
      node("block", "hint", {
        data: record({ style: styles, icon: word }, { requiredKeys: ["style"] }),
        nodes: blocks,
      }),
      node("block", "code", {
        data: record(
          {
            syntax: fc.constantFrom("js", "bash"),
            title: word,
            lineNumbers: fc.boolean(),
            overflow: fc.constant("wrap"),
          },
          { requiredKeys: [] },
        ),
        nodes: fc.array(node("block", "code-line", { data: fc.constant({}), nodes: inlines }), {
          maxLength: 3,
        }),
      }),
      voidBlock("divider", fc.constant({})),
      voidBlock("math", record({ formula: word })),
      voidBlock("embed", record({ url: fc.constant("https://x.test/v") })),
      voidBlock("content-ref", record({ ref })),
      voidBlock("swagger", record({ ref, path: word, method: fc.constantFrom("get", "post") })),
      voidBlock(
        "reusable-content",
        record({ ref: record({ kind: fc.constant("reusable-content"), reusableContent: key }) }),
      ),
      node("block", "images", { data: fc.constant({}), nodes: fc.array(image, { maxLength: 2 }) }),
      image,
      node("block", "file", {
        data: record({ ref }),
        isVoid: fc.constant(true),
        fragments: caption,
      }),
      node("block", "tabs", {
        data: fc.constant({}),
        nodes: fc.array(item("tabs-item", record({ title: word, icon: word }, { requiredKeys: ["title"] })), {
          maxLength: 3,
        }),
      }),
      node("block", "stepper", {
        data: fc.constant({}),
        nodes: fc.array(item("stepper-step", fc.constant({})), { maxLength: 3 }),
      }),
      node("block", "columns", {
        data: fc.constant({}),
        nodes: fc.array(item("column", record({ width: fc.constant({ value: 50, unit: "%" }) })), {
          maxLength: 2,
        }),
      }),
      node("block", "expandable", {
        data: record({ defaultExpanded: fc.boolean() }, { requiredKeys: [] }),
        isVoid: fc.constant(true),
        fragments: fc.tuple(
          fragment(fc.constant("expandable-title"), fc.array(paragraph, { maxLength: 1 })),
          fragment(fc.constant("expandable-body"), blocks),
        ),
      }),
      node("block", "table", {
        data: fc.constant({
          view: { type: "grid", columns: ["c0"] },
          records: { r0: { values: { c0: "r0c0" } } },
        }),
        isVoid: fc.constant(true),
        fragments: fc.array(fragment(fc.constant("r0c0"), fc.array(paragraph, { maxLength: 1 })), {
          maxLength: 2,
        }),
      }),
      item("if", record({ expression: word })),
      item("prompt", record({ description: word })),
      node("block", "updates", {
        data: record({ format: fc.constantFrom("full", "short") }),
        nodes: fc.array(item("update", record({ date: fc.constant("2025-01-01") })), { maxLength: 2 }),
      }),
      // Kinds the schema does not know, and blocks it cannot hold as they are: opaque blocks.
      item("made-up", record({ what: word })),
      voidBlock("html", record({ html: fc.constant("<div>x</div>") })),
      node("block", "list-ordered", {
        data: fc.constant({}),
        nodes: fc.array(paragraph, { minLength: 1, maxLength: 2 }),
      }),
      node("block", "paragraph", {
        data: fc.constant({}),
        nodes: fc.array(tie("block"), { minLength: 1, maxLength: 1 }),
      }),
      text,
    ),
  };
});

export const documentArbitrary: fc.Arbitrary<JSONDocument> = fc
  .tuple(fc.array(block, { maxLength: 6 }), fc.oneof(fc.constant({}), fc.constant({ origin: "git" })))
  .map(([nodes, data]) => ({ object: "document", data, nodes }) as unknown as JSONDocument);
