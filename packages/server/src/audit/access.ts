import { onOrganization } from "../organizations/index.js";
import { canReadAuditLog } from "./policy.js";

/** The rule of every operation of the area: 404 outside the organization, 403 for all but its admins. */
export const readsAuditLog = onOrganization("read the audit log of this organization", ({ role }) =>
  canReadAuditLog(role),
);
