import { contentEngine } from "../content/engine/index.js";
import { ApiError } from "../http/errors.js";
import { siblingModule } from "../workers/pool.js";
import type {
  ReadInput,
  Repository,
  RepositoryOutcome,
  WriteInput,
  WrittenRepository,
} from "./repository.js";

export type {
  ReadInput,
  RepoConfig,
  RepoDocument,
  RepoGroup,
  RepoLink,
  RepoPage,
  Repository,
  WriteInput,
  WrittenRepository,
} from "./repository.js";

/**
 * GitBook's repository format from the event loop: the reading and writing (see repository.ts) run in
 * the content engine's pool, whose limits hold for a repository as for a page body (422 beyond them).
 */
const repositoryModule = siblingModule(import.meta.url, "repository");

/** The Markdown files among `files`: their nesting is checked before anything parses them. */
function bodiesOf(files: Readonly<Record<string, string>>): string[] {
  return Object.entries(files).flatMap(([path, text]) => (path.endsWith(".md") ? [text] : []));
}

/** The space a repository holds. 422 when its `.gitbook.yaml` is not GitBook's, or it exceeds the limits. */
export async function readRepository(input: ReadInput): Promise<Repository> {
  const outcome = await contentEngine().process<RepositoryOutcome>(
    "content",
    repositoryModule,
    "readRepository",
    { value: input },
    { bodies: bodiesOf(input.files), what: "repository", many: true },
  );
  if ("invalid" in outcome) throw new ApiError(422, outcome.invalid);
  return outcome;
}

/**
 * `.gitbook.yaml` of a repository: where its content is, and its redirects. 422 when it is not
 * GitBook's. Only the configuration file goes to the pool.
 */
export async function readRepositoryConfig({
  files,
  projectDirectory = "",
}: ReadInput): Promise<Pick<Repository, "config" | "redirects">> {
  const name = [projectDirectory, ".gitbook.yaml"].filter(Boolean).join("/");
  const configFile = files[name];
  const outcome = await contentEngine().process<
    Pick<Repository, "config" | "redirects"> | { invalid: string }
  >(
    "content",
    repositoryModule,
    "readConfig",
    { value: { files: configFile === undefined ? {} : { [name]: configFile }, projectDirectory } },
    { what: "repository" },
  );
  if ("invalid" in outcome) throw new ApiError(422, outcome.invalid);
  return outcome;
}

/** The repository's files for a space, what did not change written as `previous` held it. 422 as above. */
export function writeRepository(input: WriteInput): Promise<Record<string, string>> {
  return write(input, "writeRepository");
}

/** As `writeRepository`, with the file each page given an `id` was written to. */
export function writeRepositoryPlaced(input: WriteInput): Promise<WrittenRepository> {
  return write(input, "writeRepositoryPlaced");
}

function write<Result>(input: WriteInput, name: string): Promise<Result> {
  const bodies = [...bodiesOf(input.previous ?? {}), ...markdownOf(input.pages)];
  return contentEngine().process(
    "content",
    repositoryModule,
    name,
    { value: input },
    { bodies, what: "repository", many: true },
  );
}

function markdownOf(pages: WriteInput["pages"]): string[] {
  return pages.flatMap((page) => {
    if (page.kind === "link") return [];
    const own = page.kind === "document" ? [page.markdown] : [];
    return [...own, ...markdownOf(page.children)];
  });
}
