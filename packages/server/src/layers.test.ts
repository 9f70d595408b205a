import { describe, expect, it } from "vitest";
import { lintProbe } from "./testing/lint-probe.js";

describe("the lint keeps the layers", { timeout: 60_000 }, () => {
  it("fails on a kernel module importing an area", async () => {
    const { failed, output } = await lintProbe(
      "content",
      'import { linksOfDocuments } from "../links/store.js";\nexport const probe = linksOfDocuments;\n',
    );
    expect(failed).toBe(true);
    expect(output).toContain("lint/style/noRestrictedImports");
    expect(output).toContain("The kernel");
  });

  it("fails on a module one folder deeper in the kernel (as a migration is) importing an area", async () => {
    const { failed, output } = await lintProbe(
      "db",
      'import { createUser } from "../../users/store.js";\nexport const probe = createUser;\n',
      { deeper: true },
    );
    expect(failed).toBe(true);
    expect(output).toContain("lint/style/noRestrictedImports");
  });

  it("passes a kernel module importing the kernel, and an area importing the kernel", async () => {
    const kernel = await lintProbe(
      "content",
      'import { ROLE_ORDER } from "../policy.js";\nimport { notFound } from "../http/errors.js";\n' +
        "export const probe = [ROLE_ORDER, notFound];\n",
    );
    expect(kernel).toEqual({ failed: false, output: "" });
    const area = await lintProbe(
      "links",
      'import { saveDocumentLinks } from "../content/links.js";\nexport const probe = saveDocumentLinks;\n',
    );
    expect(area).toEqual({ failed: false, output: "" });
  });

  it("fails on an import cycle, even within one area", async () => {
    const { failed, output } = await lintProbe(
      "teams",
      'import { companion } from "{companion}";\nexport const probe = () => companion;\n',
      { companion: 'import { probe } from "{probe}";\nexport const companion = () => probe;\n' },
    );
    expect(failed).toBe(true);
    expect(output).toContain("lint/suspicious/noImportCycles");
  });

  it("fails on an area's store (anything but its handlers.ts and area.ts) importing a command", async () => {
    const { failed, output } = await lintProbe(
      "spaces",
      'import { mergeChangeRequest } from "../commands/merge.js";\nexport const probe = mergeChangeRequest;\n',
    );
    expect(failed).toBe(true);
    expect(output).toContain("lint/style/noRestrictedImports");
    expect(output).toContain("commands build on areas");
  });
});
