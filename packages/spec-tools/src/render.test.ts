import { describe, expect, it } from "vitest";
import type { ReviewedChange } from "./ack.js";
import { type Report, renderMarkdown, renderText } from "./render.js";

const operation = { path: "/spaces/{spaceId}", method: "get", operationId: "getSpace" };
const removed: ReviewedChange = {
  id: "removed:getSpace:response.200.body.title",
  type: "breaking",
  verb: "removed",
  operation,
  side: "response",
  location: "response.200.body.title",
  summary: "required property removed",
  before: { type: "string" },
};
const report: Report = {
  base: "origin/main",
  head: "working tree",
  review: {
    changes: [
      removed,
      {
        ...removed,
        id: "removed:getSpace:response.200.body.emoji",
        location: "response.200.body.emoji",
        acknowledged: "Emoji | icons moved.",
      },
      {
        id: "changed:getSpace:query.limit.maximum",
        type: "non-breaking",
        verb: "changed",
        operation,
        side: "request",
        location: "query.limit.maximum",
        summary: "maximum changed",
        before: 100,
        after: 500,
      },
    ],
    stale: [{ id: "removed:gone", reason: "Merged." }],
  },
};

describe("renderText", () => {
  it("groups by breaking and operation, with ids, acknowledgements and what to add", () => {
    expect(renderText(report)).toBe(`API contract changes from origin/main to working tree

Breaking changes (2, 1 acknowledged):
  GET /spaces/{spaceId} (getSpace)
    ✗ response.200.body.title: required property removed (string → —)
        id: removed:getSpace:response.200.body.title
    ✓ response.200.body.emoji: required property removed (string → —)
        id: removed:getSpace:response.200.body.emoji
        acknowledged: Emoji | icons moved.

Non-breaking changes (1):
  GET /spaces/{spaceId} (getSpace)
    • query.limit.maximum: maximum changed (100 → 500)
        id: changed:getSpace:query.limit.maximum

Stale acknowledgements in spec/breaking-changes.yaml (they match no breaking change; remove them):
  - removed:gone

1 breaking change is not acknowledged.
If intended, acknowledge in spec/breaking-changes.yaml:
acknowledged:
  - id: removed:getSpace:response.200.body.title
    reason: <who is affected and how they migrate>
`);
  });

  it("says when nothing changed", () => {
    expect(renderText({ ...report, review: { changes: [], stale: [] } })).toContain(
      "No changes to the API contract.",
    );
  });
});

describe("renderMarkdown", () => {
  it("renders the same as tables, escaping pipes", () => {
    const markdown = renderMarkdown(report);
    expect(markdown).toContain("### Breaking changes (2, 1 acknowledged)");
    expect(markdown).toContain(
      "| `GET /spaces/{spaceId} (getSpace)` | `response.200.body.title` | ❌ required property removed | string → — | `removed:getSpace:response.200.body.title` |",
    );
    expect(markdown).toContain("✅ required property removed (acknowledged: Emoji \\| icons moved.)");
    expect(markdown).toContain("| `query.limit.maximum` | maximum changed | 100 → 500 |");
    expect(markdown).toContain("- `removed:gone`");
    expect(markdown.trimEnd().endsWith("**1 breaking change is not acknowledged.**")).toBe(true);
  });
});
