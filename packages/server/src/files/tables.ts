/**
 * Row types of the tables of this area. Booleans are 0/1 integers and timestamps ISO 8601 text, as
 * everywhere.
 *
 * Which revisions show a file (see `visibleFiles` in store.ts): a change request shows main's files and
 * its own; main shows the files uploaded without a change request and those of merged change requests.
 */
export type FilesTables = {
  files: FileTable;
};

/** A file of a space; its bytes are in the blob store under `sha256`. */
export interface FileTable {
  id: string;
  space_id: string;
  /** The change request it was added in; null for a file added to main directly. */
  change_request_id: string | null;
  name: string;
  content_type: string;
  size: number;
  /** Hex SHA-256 of the bytes: their key in the blob store. */
  sha256: string;
  /** Pixels, for images whose size could be read. */
  width: number | null;
  height: number | null;
  created_at: string;
}

declare module "../db/schema.js" {
  interface Database extends FilesTables {}
}
