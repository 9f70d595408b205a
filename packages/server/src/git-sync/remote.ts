import type { Schema } from "@quire/api-types";
import { fromJson, type JsonText } from "../db/codecs.js";
import { badRequest } from "../http/errors.js";
import { decryptSecret, encryptSecrets } from "../integrations/index.js";
import type { GitRemote } from "../net/git.js";
import type { GitRepositoryColumns } from "./tables.js";

const CREDENTIALS = "credentials";
const WEBHOOK = "webhook";

interface SealedFor {
  secretKey: string;
  spaceId: string;
}

/** A secret of the space's repository as stored: encrypted under the server key, bound to the space and its name. */
function seal({ secretKey, spaceId }: SealedFor, name: string, value: string): string {
  return encryptSecrets(secretKey, spaceId, { [name]: value });
}

function reveal({ secretKey, spaceId }: SealedFor, name: string, stored: string): string {
  const sealed = fromJson(stored as JsonText<Record<string, string>>)[name] ?? "";
  return decryptSecret(secretKey, spaceId, name, sealed);
}

/** The push webhook's secret, as stored. */
export const sealWebhookSecret = (secret: string, key: SealedFor) => seal(key, WEBHOOK, secret);

/** The push webhook's secret, from what `sealWebhookSecret` stored. */
export const revealSecret = (stored: string, key: SealedFor) => reveal(key, WEBHOOK, stored);

/** What a request names of its repository, checked and split: the URL, and credentials apart. */
export interface RequestedRepository {
  url: string;
  ref: string;
  repoProjectDirectory?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
}

/**
 * The repository columns for a request: the URL without its credentials (which are encrypted under
 * the server key, bound to the space), the branch as a full ref. 400 for anything Git could not use.
 */
export function repositoryColumns(requested: RequestedRepository, key: SealedFor): GitRepositoryColumns {
  let url: URL;
  try {
    url = new URL(requested.url);
  } catch {
    throw badRequest("`url` is not a URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw badRequest("`url` must be an https:// (or http://) URL of a Git repository.");
  if (url.search || url.hash) throw badRequest("`url` must not have a query or a fragment.");
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = "";
  url.password = "";
  return {
    url: url.href,
    credentials: username || password ? seal(key, CREDENTIALS, `${username}:${password}`) : null,
    ref: branchRef(requested.ref),
    project_directory: projectDirectory(requested.repoProjectDirectory ?? ""),
    tree_url: linkPrefix(requested.repoTreeURL, "repoTreeURL"),
    commit_url: linkPrefix(requested.repoCommitURL, "repoCommitURL"),
  };
}

/** `refs/heads/<name>` for a branch given either way, as `git check-ref-format` would take it. */
function branchRef(ref: string): string {
  const full = ref.startsWith("refs/") ? ref : `refs/heads/${ref}`;
  const name = full.slice("refs/heads/".length);
  const valid =
    full.startsWith("refs/heads/") &&
    name !== "" &&
    !/[\s~^:?*[\\\p{Cc}]|\.\.|@\{|\/\/|^\/|\/$|\.lock$|\.$|^-/u.test(name) &&
    !name.split("/").some((part) => part.startsWith("."));
  if (!valid) throw badRequest("`ref` must name a branch, as `refs/heads/main`.");
  return full;
}

function projectDirectory(directory: string): string {
  const parts = directory.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.some((part) => part === ".." || part.startsWith(".git")))
    throw badRequest("`repoProjectDirectory` must be a directory inside the repository.");
  return parts.join("/");
}

function linkPrefix(value: string | undefined, name: string): string | null {
  if (value === undefined || value === "") return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`\`${name}\` is not a URL.`);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password)
    throw badRequest(`\`${name}\` must be an http(s) URL without credentials.`);
  return url.href;
}

/** The remote Git reaches: the stored URL, with the credentials decrypted for this operation only. */
export function remoteOf(
  columns: Pick<GitRepositoryColumns, "url" | "credentials" | "ref">,
  key: SealedFor,
): GitRemote {
  if (columns.credentials === null) return { url: columns.url, ref: columns.ref };
  const pair = reveal(key, CREDENTIALS, columns.credentials);
  const colon = pair.indexOf(":");
  return {
    url: columns.url,
    ref: columns.ref,
    credentials: { username: pair.slice(0, colon), password: pair.slice(colon + 1) },
  };
}

export type GitProvider = "github" | "gitlab" | "gitea" | "git";

/** The provider a repository's host says, for `installationProvider`. */
export function providerOf(url: string): GitProvider {
  const host = new URL(url).hostname;
  if (host === "github.com" || host.endsWith(".github.com")) return "github";
  if (host.includes("gitlab")) return "gitlab";
  if (host.includes("gitea") || host.includes("forgejo") || host === "codeberg.org") return "gitea";
  return "git";
}

/** `owner/name` of a repository URL. */
export function repoNameOf(url: string): string {
  return new URL(url).pathname.replace(/^\/+|\/+$/g, "").replace(/\.git$/, "");
}

/** `Space.gitSync` of a space connected to `repository`, last synchronized at `updatedAt`. */
export function spaceGitSyncOf(
  repository: Pick<GitRepositoryColumns, "url" | "tree_url">,
  updatedAt: string,
): Schema<"SpaceGitSync"> {
  return {
    repoName: repoNameOf(repository.url),
    installationProvider: providerOf(repository.url),
    url: repository.tree_url ?? repository.url,
    updatedAt,
  };
}

/**
 * Where a repository given at `given` was found, when Git followed a redirect to `reached` on the same
 * origin (a renamed repository): the URL to keep. Undefined otherwise; one on another origin is not
 * kept, since the credentials go to the given origin only.
 */
export function movedRepositoryUrl(given: string, reached: string | undefined): string | undefined {
  if (reached === undefined || reached === given) return undefined;
  return new URL(reached).origin === new URL(given).origin ? reached : undefined;
}
