import { randomBytes } from "node:crypto";
import type { AccessMap, AreaHandlers } from "../area.js";
import { conflict, notFound } from "../http/errors.js";
import { noContent, ok } from "../http/results.js";
import type { Services } from "../services.js";
import { assertSpaceNotDeleted, canManageSpace, onSpace } from "../spaces/index.js";
import { presentGitInfo } from "./presenter.js";
import { type RequestedRepository, repositoryColumns, sealWebhookSecret } from "./remote.js";
import { connectionOf, disconnect, latestOperation, queueOperation, setWebhookSecret } from "./store.js";
import type { GitSyncDirection } from "./tables.js";
import { webhookUrl } from "./webhooks.js";

// As the space's `triggerGitSync` permission says: its admins.
const triggers = onSpace("synchronize this space with Git", ({ role }) => canManageSpace(role));

export const gitSyncAccess = {
  importGitRepository: triggers,
  exportToGitRepository: triggers,
  getSpaceGitInfo: onSpace("see this space's Git Sync"),
  createSpaceGitWebhook: triggers,
  disconnectGitRepository: triggers,
} satisfies AccessMap;

interface RequestedOperation extends RequestedRepository {
  timestamp?: string;
  force?: boolean;
  standalone?: boolean;
  commitMessage?: string;
}

export function gitSyncHandlers(services: Services): AreaHandlers<typeof gitSyncAccess> {
  const { db, clock, ids, secretKey, transaction, git } = services;

  /** Checks what is asked and queues it (204): the job runner runs it after the space's earlier ones. */
  async function queue(
    spaceId: string,
    userId: string,
    direction: GitSyncDirection,
    body: RequestedOperation,
  ) {
    const columns = repositoryColumns(body, { secretKey, spaceId });
    await transaction(async (tx) => {
      const connection = await connectionOf(tx, spaceId);
      // Credentials given once serve the later operations on the same repository.
      const credentials =
        columns.credentials ?? (connection?.url === columns.url ? connection.credentials : null);
      await queueOperation(
        tx,
        { clock, ids },
        {
          ...columns,
          credentials,
          spaceId,
          direction,
          requestedBy: userId,
          force: body.force ?? false,
          standalone: body.standalone ?? false,
          ...(body.timestamp !== undefined && { timestamp: new Date(body.timestamp).toISOString() }),
          ...(body.commitMessage !== undefined && { commitMessage: body.commitMessage }),
        },
      );
    });
    return noContent();
  }

  return {
    async importGitRepository({ body, caller }, { space }) {
      assertSpaceNotDeleted(space);
      return queue(space.id, caller.user.id, "import", body);
    },

    async exportToGitRepository({ body, caller }, { space }) {
      assertSpaceNotDeleted(space);
      return queue(space.id, caller.user.id, "export", body);
    },

    async getSpaceGitInfo(_input, { space }) {
      // The operation first: a success commits with the connection it makes, which the read after it
      // then sees too (read side by side, PostgreSQL could show a success with no connection yet).
      const latest = await latestOperation(db, space.id);
      const connection = await connectionOf(db, space.id);
      const info = presentGitInfo(connection, latest, git.limits.timeoutMs);
      if (!info) throw notFound("Git Sync configuration");
      return ok(info);
    },

    async createSpaceGitWebhook(_input, { space }) {
      const secret = randomBytes(32).toString("base64url");
      const stored = await transaction((tx) =>
        setWebhookSecret(
          tx,
          space.id,
          sealWebhookSecret(secret, { secretKey, spaceId: space.id }),
          clock.now(),
        ),
      );
      if (!stored)
        throw conflict("The space is not connected to a repository yet: import or export it first.");
      return ok({ url: webhookUrl(services, space.id), secret });
    },

    async disconnectGitRepository(_input, { space }) {
      await transaction((tx) => disconnect(tx, space.id));
      await git.client.drop(space.id);
      return noContent();
    },
  };
}
