/** GitBook's JSON document as the editor reads and writes it: the contract's shapes, shared with the server. */
export type {
  DocumentBlock,
  DocumentFragment,
  DocumentInline,
  DocumentLeaf,
  DocumentMark,
  DocumentNode,
  DocumentText,
  JSONDocument,
} from "@quire/client";
