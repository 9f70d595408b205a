/**
 * GitBook's JSON document, the form GitBook's API reads and writes page bodies and comments in: a tree
 * of blocks, inlines and texts whose leaves carry marks; every node's `type` names one of GitBook's
 * kinds (`paragraph`, `heading-1`, `hint`, `link`…). The contract's shapes (`Schema<"JSONDocument">`…)
 * as code reads and writes them: openapi-typescript types their `data` and `meta` as objects no property
 * can be set on, so the server's engine and the app's editor share these (any document the API gives
 * is one of them: the app's convert.test.ts checks that it is assignable).
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
