import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ACKNOWLEDGEMENTS_FILE, parseAcknowledgements, review, unacknowledgedBreaks } from "./ack.js";
import { diffContracts } from "./diff.js";
import { readAtRef, repositoryRoot } from "./git.js";
import { type Report, renderMarkdown, renderText } from "./render.js";

/** The compiled contract, relative to the repository root; `spec:check` keeps the committed copy fresh. */
export const CONTRACT_FILE = "spec/openapi/openapi.json";

export const USAGE = `Usage: quire-spec <breaking|changelog> --base <git-ref> [--head <git-ref>] [--summary <file>]

  breaking   print the changes to ${CONTRACT_FILE} since --base, grouped as breaking and
             non-breaking; exit 1 when a breaking change is not acknowledged in ${ACKNOWLEDGEMENTS_FILE}
  changelog  print the same as Markdown, for release notes

  --base <git-ref>   the contract to compare from
  --head <git-ref>   the contract to compare to (default: the working tree)
  --summary <file>   also append the Markdown changelog to <file>, e.g. $GITHUB_STEP_SUMMARY
`;

export interface Io {
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Runs the command; the result is the exit code: 0 done, 1 unacknowledged breaking changes, 2 error. */
export function main(args: string[], io: Io): number {
  let options: { command: string; base: string; head?: string; summary?: string };
  try {
    options = parseOptions(args);
  } catch (error) {
    io.stderr(`quire-spec: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  try {
    const report = compare(io.cwd, options.base, options.head);
    if (options.summary) appendFileSync(options.summary, renderMarkdown(report));
    io.stdout(options.command === "breaking" ? renderText(report) : renderMarkdown(report));
    const failed = options.command === "breaking" && unacknowledgedBreaks(report.review.changes).length > 0;
    return failed ? 1 : 0;
  } catch (error) {
    io.stderr(`quire-spec: ${(error as Error).message}\n`);
    return 2;
  }
}

function parseOptions(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { base: { type: "string" }, head: { type: "string" }, summary: { type: "string" } },
  });
  const [command, ...extra] = positionals;
  if (command !== "breaking" && command !== "changelog")
    throw new Error("expected the command breaking or changelog");
  if (extra.length > 0) throw new Error(`unexpected argument ${extra.join(" ")}`);
  if (!values.base) throw new Error("--base <git-ref> is required");
  return { ...values, command, base: values.base };
}

function compare(cwd: string, base: string, head: string | undefined): Report {
  const root = repositoryRoot(cwd);
  const atHead = (path: string) => {
    if (head !== undefined) return readAtRef(root, head, path);
    const file = join(root, path);
    return existsSync(file) ? readFileSync(file, "utf8") : undefined;
  };
  const headLabel = head ?? "working tree";
  const before = parseContract(readAtRef(root, base, CONTRACT_FILE), base);
  const after = parseContract(atHead(CONTRACT_FILE), headLabel);
  const acknowledgements = parseAcknowledgements(atHead(ACKNOWLEDGEMENTS_FILE) ?? "");
  return { base, head: headLabel, review: review(diffContracts(before, after), acknowledgements) };
}

function parseContract(text: string | undefined, where: string): unknown {
  if (text === undefined) throw new Error(`${CONTRACT_FILE} does not exist in ${where}`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${CONTRACT_FILE} in ${where} is not valid JSON (${(error as Error).message})`);
  }
}
