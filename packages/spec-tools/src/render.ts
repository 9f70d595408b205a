import { ACKNOWLEDGEMENTS_FILE, type Review, type ReviewedChange, unacknowledgedBreaks } from "./ack.js";
import { isBreaking, operationLabel } from "./change.js";
import { isRecord } from "./openapi.js";

export interface Report {
  /** What the contract is compared from and to, as shown to readers (a git ref, "working tree"). */
  base: string;
  head: string;
  review: Review;
}

export function renderText({ base, head, review }: Report): string {
  const lines = [`API contract changes from ${base} to ${head}`, ""];
  if (review.changes.length === 0) lines.push("No changes to the API contract.", "");
  for (const [title, changes] of groups(review.changes)) {
    lines.push(`${title}:`);
    for (const [operation, inOperation] of byOperation(changes)) {
      lines.push(`  ${operation}`);
      for (const change of inOperation) {
        const marker = !isBreaking(change) ? "•" : change.acknowledged === undefined ? "✗" : "✓";
        lines.push(`    ${marker} ${headline(change)}`, `        id: ${change.id}`);
        if (change.acknowledged !== undefined) lines.push(`        acknowledged: ${change.acknowledged}`);
      }
    }
    lines.push("");
  }
  if (review.stale.length > 0) {
    lines.push(
      `Stale acknowledgements in ${ACKNOWLEDGEMENTS_FILE} (they match no breaking change; remove them):`,
    );
    lines.push(...review.stale.map(({ id }) => `  - ${id}`), "");
  }
  const unacknowledged = unacknowledgedBreaks(review.changes);
  lines.push(verdict(unacknowledged));
  if (unacknowledged.length > 0) {
    lines.push(`If intended, acknowledge in ${ACKNOWLEDGEMENTS_FILE}:`, "acknowledged:");
    for (const { id } of unacknowledged)
      lines.push(`  - id: ${id}`, "    reason: <who is affected and how they migrate>");
  }
  return `${lines.join("\n")}\n`;
}

export function renderMarkdown({ base, head, review }: Report): string {
  const lines = [
    "## API changelog",
    "",
    `Changes to the API contract from ${code(base)} to ${code(head)}.`,
    "",
  ];
  if (review.changes.length === 0) lines.push("No changes to the API contract.", "");
  for (const [title, changes] of groups(review.changes)) {
    lines.push(
      `### ${title}`,
      "",
      "| Operation | Location | Change | Before → after | Id |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const change of changes) {
      const status = !isBreaking(change) ? "" : change.acknowledged === undefined ? "❌ " : "✅ ";
      const acknowledged = change.acknowledged === undefined ? "" : ` (acknowledged: ${change.acknowledged})`;
      const cells = [
        change.operation ? code(operationLabel(change.operation)) : "",
        change.location ? code(change.location) : "",
        `${status}${change.summary}${acknowledged}`,
        values(change) ?? "",
        code(change.id),
      ];
      lines.push(`| ${cells.map((cell) => cell.replaceAll("|", "\\|").replaceAll("\n", " ")).join(" | ")} |`);
    }
    lines.push("");
  }
  if (review.stale.length > 0) {
    lines.push(
      `Stale acknowledgements in \`${ACKNOWLEDGEMENTS_FILE}\` (they match no breaking change; remove them):`,
    );
    lines.push("", ...review.stale.map(({ id }) => `- ${code(id)}`), "");
  }
  lines.push(`**${verdict(unacknowledgedBreaks(review.changes))}**`);
  return `${lines.join("\n")}\n`;
}

function groups(changes: ReviewedChange[]): Array<[string, ReviewedChange[]]> {
  const breaking = changes.filter(isBreaking);
  const acknowledged = breaking.filter((change) => change.acknowledged !== undefined).length;
  const nonBreaking = changes.filter((change) => !isBreaking(change));
  const all: Array<[string, ReviewedChange[]]> = [
    [
      `Breaking changes (${breaking.length}${acknowledged > 0 ? `, ${acknowledged} acknowledged` : ""})`,
      breaking,
    ],
    [`Non-breaking changes (${nonBreaking.length})`, nonBreaking],
  ];
  return all.filter(([, members]) => members.length > 0);
}

function byOperation(changes: ReviewedChange[]): Map<string, ReviewedChange[]> {
  const grouped = new Map<string, ReviewedChange[]>();
  for (const change of changes) {
    const label = change.operation ? operationLabel(change.operation) : "Document";
    grouped.set(label, [...(grouped.get(label) ?? []), change]);
  }
  return grouped;
}

function headline(change: ReviewedChange): string {
  const shown = values(change);
  return [change.location && `${change.location}:`, change.summary, shown && `(${shown})`]
    .filter(Boolean)
    .join(" ");
}

function verdict(unacknowledged: ReviewedChange[]): string {
  if (unacknowledged.length === 0) return "No unacknowledged breaking changes.";
  const count = unacknowledged.length;
  return `${count} breaking change${count === 1 ? " is" : "s are"} not acknowledged.`;
}

/** `before → after`, or nothing when neither side has a short form (a whole operation, say). */
function values(change: ReviewedChange): string | undefined {
  const before = shortForm(change.before);
  const after = shortForm(change.after);
  if (before === undefined && after === undefined) return undefined;
  return `${before ?? "—"} → ${after ?? "—"}`;
}

/** Scalars as JSON, schemas by their type or referenced name; other objects have no short form. */
function shortForm(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.every((item) => !isRecord(item)) ? JSON.stringify(value) : undefined;
  if (!isRecord(value)) return JSON.stringify(value);
  if (typeof value.$ref === "string") return value.$ref.split("/").at(-1);
  const type = Array.isArray(value.type) ? value.type.join(" | ") : value.type;
  if (typeof type !== "string") return undefined;
  return typeof value.format === "string" ? `${type} (${value.format})` : type;
}

function code(text: string): string {
  return `\`${text}\``;
}
