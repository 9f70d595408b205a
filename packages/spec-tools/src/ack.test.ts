import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseAcknowledgements, review, unacknowledgedBreaks } from "./ack.js";
import type { Change } from "./change.js";

const change = (id: string, type: Change["type"] = "breaking"): Change => ({
  id,
  type,
  verb: "removed",
  side: "response",
  location: id,
  summary: "property removed",
});

describe("parseAcknowledgements", () => {
  it("reads ids and reasons", () => {
    const text = "acknowledged:\n  - id: removed:getSpace\n    reason: '  Replaced by getSpaceById. '\n";
    expect(parseAcknowledgements(text)).toEqual([
      { id: "removed:getSpace", reason: "Replaced by getSpaceById." },
    ]);
  });

  it("accepts an empty file and the committed one", () => {
    expect(parseAcknowledgements("")).toEqual([]);
    const committed = new URL("../../../spec/breaking-changes.yaml", import.meta.url);
    expect(parseAcknowledgements(readFileSync(committed, "utf8"))).toEqual(expect.any(Array));
  });

  it.each([
    ["acknowledged: nope", "expected `acknowledged:` with a list"],
    ["- id: x", "expected `acknowledged:` with a list"],
    ["acknowledged:\n  - reason: because", "entry 1 needs an `id`"],
    ["acknowledged:\n  - id: removed:getSpace", "entry removed:getSpace needs a `reason`"],
    ["acknowledged: [", "not valid YAML"],
  ])("rejects %j", (text, message) => {
    expect(() => parseAcknowledgements(text)).toThrow(message);
  });
});

describe("review", () => {
  it("marks acknowledged breaks and reports entries that match none", () => {
    const { changes, stale } = review(
      [change("removed:getSpace:response.200.body.title"), change("added:getSpace", "non-breaking")],
      [
        { id: "removed:getSpace:response.200.body.title", reason: "Renamed to name." },
        { id: "added:getSpace", reason: "Not a break at all." },
        { id: "removed:gone", reason: "Merged long ago." },
      ],
    );
    expect(changes.map((reviewed) => reviewed.acknowledged)).toEqual(["Renamed to name.", undefined]);
    expect(stale.map(({ id }) => id)).toEqual(["added:getSpace", "removed:gone"]);
    expect(unacknowledgedBreaks(changes)).toEqual([]);
  });

  it("lets `*` stand for any text, and nothing else be a pattern", () => {
    const { changes } = review(
      [
        change("removed:getSpace:response.200.body.kind.enum.a"),
        change("removed:listSpaces:response.200.body.items[].kind.enum.a"),
        change("removed:getSpace:response.200.body.kindXenum.a"),
      ],
      [{ id: "removed:*.kind.enum.a", reason: "Kind a is gone." }],
    );
    expect(unacknowledgedBreaks(changes).map(({ id }) => id)).toEqual([
      "removed:getSpace:response.200.body.kindXenum.a",
    ]);
  });
});
