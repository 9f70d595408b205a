import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintProbe } from "./testing/lint-probe.js";

describe("an area is used through its index.ts", { timeout: 60_000 }, () => {
  it("every area folder has an index.ts", async () => {
    const areas: string[] = [];
    for (const entry of await readdir(import.meta.dirname, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const area = await stat(join(import.meta.dirname, entry.name, "area.ts")).catch(() => undefined);
      if (area) areas.push(entry.name);
    }
    expect(areas.length).toBeGreaterThan(20);
    for (const area of areas) {
      await expect(stat(join(import.meta.dirname, area, "index.ts")), area).resolves.toBeTruthy();
    }
  });

  it("fails on an area importing another area's store.ts", async () => {
    const { failed, output } = await lintProbe(
      "teams",
      'import { members } from "../members/store.js";\nexport const probe = members;\n',
    );
    expect(failed).toBe(true);
    expect(output).toContain("lint/style/noRestrictedImports");
    expect(output).toContain("private");
  });

  it("fails on a module one folder deeper in an area (as a migration is) importing another area's store.ts", async () => {
    const { failed, output } = await lintProbe(
      "teams",
      'import type { MemberRow } from "../../members/store.js";\nexport type Probe = MemberRow;\n',
      { deeper: true },
    );
    expect(failed).toBe(true);
    expect(output).toContain("lint/style/noRestrictedImports");
  });

  it("fails on a command importing an area's store.ts, and on an area importing a top-level module", async () => {
    const command = await lintProbe(
      "commands",
      'import { spaceForCaller } from "../spaces/store.js";\nexport const probe = spaceForCaller;\n',
    );
    expect(command.failed).toBe(true);
    expect(command.output).toContain("lint/style/noRestrictedImports");
    const topLevel = await lintProbe(
      "teams",
      'import { createApp } from "../app.js";\nexport const probe = createApp;\n',
    );
    expect(topLevel.failed).toBe(true);
    expect(topLevel.output).toContain("lint/style/noRestrictedImports");
  });

  it("fails on the top level (cli, bench) importing an area's store.ts, and passes its index.js", async () => {
    const store = await lintProbe(
      "cli",
      'import { createUser } from "../users/store.js";\nexport const probe = createUser;\n',
    );
    expect(store.failed).toBe(true);
    expect(store.output).toContain("lint/style/noRestrictedImports");
    const entry = await lintProbe(
      "cli",
      'import { createUser } from "../users/index.js";\nexport const probe = createUser;\n',
    );
    expect(entry).toEqual({ failed: false, output: "" });
  });

  it("passes an area or a command importing another area's index.js and the kernel", async () => {
    const area = await lintProbe(
      "teams",
      'import { presentMember } from "../members/index.js";\nimport { notFound } from "../http/errors.js";\n' +
        'import { ROLE_ORDER } from "../policy.js";\nexport const probe = [presentMember, notFound, ROLE_ORDER];\n',
    );
    expect(area).toEqual({ failed: false, output: "" });
    const command = await lintProbe(
      "commands",
      'import { spaceForCaller } from "../spaces/index.js";\nexport const probe = spaceForCaller;\n',
    );
    expect(command).toEqual({ failed: false, output: "" });
  });
});
