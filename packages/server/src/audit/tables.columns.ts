import type { ColumnsOf } from "../db/columns.js";
import type { AuditTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const auditColumns: ColumnsOf<AuditTables> = {
  failed_sign_ins: {
    occurred_at: "not null",
    address: "null",
  },
};
