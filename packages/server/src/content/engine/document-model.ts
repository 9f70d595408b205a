/**
 * GitBook's JSON document, the form GitBook's API reads and writes page bodies and comments in: a tree
 * of blocks, inlines and texts whose leaves carry marks. Every node's `type` names one of GitBook's
 * kinds (`paragraph`, `heading-1`, `hint`, `link`…); `document.ts` converts it to and from Markdown.
 */

export interface JSONDocument {
  object: "document";
  data: Record<string, unknown>;
  nodes: DocumentBlock[];
}

export interface DocumentBlock {
  object: "block";
  type: string;
  key?: string;
  data?: Record<string, unknown>;
  nodes?: DocumentNode[];
  fragments?: DocumentFragment[];
  isVoid?: boolean;
  meta?: Record<string, unknown>;
}

export interface DocumentInline {
  object: "inline";
  type: string;
  key?: string;
  data?: Record<string, unknown>;
  nodes?: DocumentNode[];
  isVoid?: boolean;
}

export interface DocumentText {
  object: "text";
  key?: string;
  leaves: DocumentLeaf[];
}

export interface DocumentLeaf {
  object: "leaf";
  text: string;
  marks: DocumentMark[];
}

export interface DocumentMark {
  object: "mark";
  type: string;
  data?: Record<string, unknown>;
}

/** A named part of a block that is not its body: an image's caption, an expandable's title and body. */
export interface DocumentFragment {
  object: "fragment";
  key?: string;
  /** Optional in GitBook's schema: a fragment without a name is no named part, and is not read. */
  fragment?: string;
  type?: string;
  nodes: DocumentBlock[];
}

export type DocumentNode = DocumentBlock | DocumentInline | DocumentText;

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
