/**
 * GitBook's JSON document as the editor reads and writes it: the contract's shapes
 * (`Schema<"JSONDocument">`…), with `data` and `meta` as the objects they are. The contract types those
 * as `Record<string, never>` (no property can be set), so a document built here could not be typed by
 * them; any document the API gives is one of these (convert.test.ts checks that it is assignable).
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

export interface DocumentFragment {
  object: "fragment";
  key?: string;
  fragment?: string;
  type?: string;
  nodes: DocumentBlock[];
}

export type DocumentNode = DocumentBlock | DocumentInline | DocumentText;
