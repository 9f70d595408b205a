import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { serverLogger } from "./logging.js";
import { assertServerBuilt } from "./testing/server-process.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function logFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "quire-log-"));
  dirs.push(dir);
  return join(dir, "server.log");
}

const messages = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

describe("serverLogger", () => {
  it("gathers lines and writes them, in order, when flushed", async () => {
    const file = logFile();
    const logger = serverLogger("info", file);
    logger.info("first");
    logger.warn("second");
    logger.debug("below the level");
    expect(messages(file)).toEqual([]);
    await new Promise<void>((resolve, reject) => logger.flush((err) => (err ? reject(err) : resolve())));
    expect(messages(file)).toEqual(["first", "second"]);
  });

  it("writes a batch without a flush once 4 KiB of lines are gathered", () => {
    const file = logFile();
    const logger = serverLogger("info", file);
    const sent = Array.from({ length: 45 }, (_, i) => `line ${i} ${"x".repeat(60)}`);
    for (const message of sent) logger.info(message);
    const written = messages(file);
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(sent.length);
    expect(written).toEqual(sent.slice(0, written.length));
  });

  it("writes lines for people when readable (a terminal's), with the level, the message and its fields", async () => {
    const file = logFile();
    const logger = serverLogger("info", file, { readable: true });
    logger.info({ port: 8080 }, "Quire listening");
    await new Promise<void>((resolve, reject) => logger.flush((err) => (err ? reject(err) : resolve())));
    const text = stripVTControlCharacters(readFileSync(file, "utf8"));
    expect(text).toMatch(/^\[[\d:.]+\] INFO \(\d+\): Quire listening\n {4}port: 8080\n$/);
    expect(() => JSON.parse(text)).toThrow();
  });

  describe("in a process that ends", () => {
    const built = fileURLToPath(new URL("../dist/logging.js", import.meta.url));
    beforeAll(assertServerBuilt);

    const lastWords = (file: string, ending: string) =>
      spawnSync(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `import { serverLogger } from ${JSON.stringify(built)};
           const logger = serverLogger("info", ${JSON.stringify(file)});
           logger.info("last words");
           ${ending}`,
        ],
        { encoding: "utf8" },
      );

    it("writes what it gathered when the process exits", () => {
      const file = logFile();
      expect(lastWords(file, "process.exit(3);").status).toBe(3);
      expect(messages(file)).toEqual(["last words"]);
    });

    it("writes what it gathered when the process dies of an uncaught error", () => {
      const file = logFile();
      const ended = lastWords(file, 'throw new Error("boom");');
      expect(ended.status).toBe(1);
      expect(ended.stderr).toContain("boom");
      expect(messages(file)).toEqual(["last words"]);
    });
  });
});
