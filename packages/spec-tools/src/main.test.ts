import { describe, expect, it } from "vitest";
import { main } from "./main.js";

function run(...args: string[]) {
  let stderr = "";
  const code = main(args, {
    cwd: process.cwd(),
    stdout: () => {},
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stderr };
}

describe("main", () => {
  it.each([
    [[], "expected the command breaking or changelog"],
    [["compare", "--base", "main"], "expected the command breaking or changelog"],
    [["breaking"], "--base <git-ref> is required"],
    [["breaking", "--base", "main", "extra"], "unexpected argument extra"],
    [["breaking", "--bsae", "main"], "Unknown option '--bsae'"],
  ])("exits 2 with usage for %j", (args, message) => {
    const { code, stderr } = run(...args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain("Usage: quire-spec");
  });

  it("never passes a ref that looks like an option on to git", () => {
    const { code, stderr } = run("breaking", "--base=--output=/tmp/x");
    expect(code).toBe(2);
    expect(stderr).toContain('unknown git ref "--output=/tmp/x"');
  });
});
