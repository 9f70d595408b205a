import { defineArea } from "../area.js";
import { importContent } from "../commands/import-content.js";
import { gitSyncAccess, gitSyncHandlers } from "./handlers.js";
import { gitSyncTasks } from "./tasks.js";
import { gitSyncRoutes } from "./webhooks.js";

/** Operations of `spec/git-sync.tsp`: a space kept in step with a Git repository in GitBook's format. */
export const gitSyncArea = defineArea({
  name: "git-sync",
  access: gitSyncAccess,
  handlers: gitSyncHandlers,
  routes: gitSyncRoutes,
  tasks: ({ git, secretKey, blobs }) =>
    gitSyncTasks({
      git: git.client,
      limits: git.limits,
      pollMs: git.pollMs,
      secretKey,
      blobs,
      importContent: (tx, context, imported) => importContent(tx, { ...context, blobs }, imported),
    }),
});
