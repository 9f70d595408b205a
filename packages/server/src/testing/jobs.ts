import { serverTasks } from "../areas.js";
import { createJobRunner, type JobRunner } from "../jobs/runner.js";
import type { NetworkPolicy } from "../net/fetch.js";
import type { GitSettings } from "../net/git.js";
import { type TestApp, testFileSettings, testGitSettings } from "./harness.js";

/** What the tests' own servers on this machine may be reached at: loopback, nothing else private. */
export const loopbackOnly: NetworkPolicy = { allowedPrivateAddresses: ["127.0.0.1"] };

/**
 * The job runner a server over `t`'s database runs: every area's tasks, reaching `network` (with Git
 * Sync's test settings under it unless `git` is given), with `t`'s key.
 */
export function serverJobRunner(
  t: Pick<TestApp, "db" | "clock" | "ids" | "secretKey">,
  network: NetworkPolicy = loopbackOnly,
  git: GitSettings = testGitSettings(network),
): JobRunner {
  return createJobRunner({
    db: t.db,
    clock: t.clock,
    ids: t.ids,
    tasks: serverTasks({ network, git, secretKey: t.secretKey, blobs: testFileSettings().blobs }),
  });
}
