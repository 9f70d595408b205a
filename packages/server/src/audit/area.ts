import { defineArea } from "../area.js";
import { auditRetentionDaysFrom } from "../config.js";
import { auditAccess, auditHandlers } from "./handlers.js";
import { auditTasks } from "./tasks.js";

/** Operations of `spec/audit.tsp`: an organization's audit log, read from its events. */
export const auditArea = defineArea({
  name: "audit",
  access: auditAccess,
  handlers: auditHandlers,
  tasks: () => auditTasks(auditRetentionDaysFrom(process.env)),
});
