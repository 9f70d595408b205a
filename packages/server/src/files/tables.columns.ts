import type { ColumnsOf } from "../db/columns.js";
import type { FilesTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const filesColumns: ColumnsOf<FilesTables> = {
  files: {
    id: "not null",
    space_id: "not null",
    change_request_id: "null",
    name: "not null",
    content_type: "not null",
    size: "not null",
    sha256: "not null",
    width: "null",
    height: "null",
    created_at: "not null",
  },
};
