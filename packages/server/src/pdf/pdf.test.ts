import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecretKey } from "../auth/secret-key.js";
import {
  type ContentScenario,
  createContentScenario,
  expectError,
  flatten,
  insertPage,
  newSpaceContent,
  updatePage,
} from "../change-requests/testing.js";
import { pngOf } from "../files/testing.js";
import { guestOf } from "../testing/fixtures.js";
import type { TestUser } from "../testing/harness.js";
import { fallbackFonts } from "./fonts.js";
import { PDF_URL_LIFETIME_MS, type PdfExport, signPdfToken } from "./token.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

const standardFontDataUrl = join(
  dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")),
  "standard_fonts/",
);

/** The text of a PDF, one string a sheet, read back by pdf.js. */
async function sheetsOf(bytes: Buffer): Promise<string[]> {
  const document = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl }).promise;
  const sheets: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const { items } = await (await document.getPage(n)).getTextContent();
    sheets.push(
      // Items are runs of one style, with their own spaces; a line's end is only a flag.
      items
        .map((item) => ("str" in item ? `${item.str}${item.hasEOL ? " " : ""}` : ""))
        .join("")
        .replace(/\s+/g, " "),
    );
  }
  await document.cleanup();
  return sheets;
}

/** A PDF as pdf.js reads it. */
const documentOf = (bytes: Buffer) =>
  getDocument({ data: new Uint8Array(bytes), standardFontDataUrl }).promise;

/** The runs of text of a sheet with where they stand: `x`, `y` from the sheet's bottom left. */
async function runsOf(document: Awaited<ReturnType<typeof documentOf>>, sheet: number) {
  const { items } = await (await document.getPage(sheet)).getTextContent();
  return items.flatMap((item) =>
    "str" in item && item.str.trim() !== ""
      ? [{ str: item.str, x: item.transform[4] as number, y: item.transform[5] as number, width: item.width }]
      : [],
  );
}

function exportUrl(spaceId: string, cr: string, user: TestUser, query = "") {
  return s.t.request.get(`/v1/spaces/${spaceId}/change-requests/${cr}/pdf${query}`).set(user.auth);
}

/** Asks for a PDF URL as `user` and fetches it: its status, type and text. */
async function exported(spaceId: string, cr: string, query = "", user: TestUser = s.reader) {
  const { body } = await exportUrl(spaceId, cr, user, query).expect(200);
  const url = new URL(body.url);
  expect(url.origin).toBe("http://quire.test");
  return url.pathname;
}

async function fetchPdf(path: string) {
  const res = await s.t.request
    .get(path)
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => done(null, Buffer.concat(chunks)));
    });
  return res;
}

/** A change request whose content is a small tree: Guide (with Install under it) and FAQ. */
async function tree() {
  const space = await newSpaceContent(s);
  const cr = await space.createChangeRequest();
  await space.edit(cr.number, [
    insertPage(
      "Guide",
      "Read **this** first.\n\n## Steps\n\n1. Download\n2. Run\n\n```sh\nquire start\n```\n\n> Note well.\n\n| Name | Value |\n| --- | --- |\n| port | 8080 |",
    ),
    insertPage("FAQ", "Questions and *answers*."),
  ]);
  const ids = Object.fromEntries(flatten(await space.pages(cr.number)).map((p) => [p.title, p.id]));
  await space.edit(cr.number, [insertPage("Install", "Install it [here](https://example.com).", ids.Guide)]);
  const pages = Object.fromEntries(flatten(await space.pages(cr.number)).map((p) => [p.title, p.id]));
  return { space, cr, pages: pages as Record<"Guide" | "FAQ" | "Install", string> };
}

describe("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf", () => {
  it("gives an hour-long URL of the change request's content as a PDF, pages in reading order", async () => {
    const { space, cr } = await tree();
    const res = await fetchPdf(await exported(space.spaceId, cr.id));
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    const sheets = await sheetsOf(res.body);
    // A sheet for each top-level page; a child page follows its parent.
    expect(sheets).toHaveLength(2);
    const [guide, faq] = sheets as [string, string];
    for (const text of ["Guide", "Read this first.", "Steps", "Download", "Run", "quire start", "Note well."])
      expect(guide).toContain(text);
    expect(guide).toMatch(/Name.*Value.*port.*8080/);
    expect(guide.indexOf("Install it here")).toBeGreaterThan(guide.indexOf("quire start"));
    expect(faq).toContain("FAQ");
    expect(faq).toContain("Questions and answers.");
  });

  it("exports one page with its descendants, or alone with `only`", async () => {
    const { space, cr, pages } = await tree();
    const subtree = (
      await sheetsOf((await fetchPdf(await exported(space.spaceId, cr.id, `?page=${pages.Guide}`))).body)
    ).join(" ");
    expect(subtree).toContain("Install it here");
    expect(subtree).not.toContain("FAQ");
    const alone = (
      await sheetsOf(
        (
          await fetchPdf(await exported(space.spaceId, cr.id, `?page=${pages.Guide}&only=true`))
        ).body,
      )
    ).join(" ");
    expect(alone).toContain("Read this first.");
    expect(alone).not.toContain("Install it here");
  });

  it("keeps serving the content of the URL's time after later edits, until the hour is over", async () => {
    const { space, cr, pages } = await tree();
    const path = await exported(space.spaceId, cr.id);
    await space.edit(cr.number, [updatePage(pages.FAQ, { markdown: "Rewritten." })]);
    const text = (await sheetsOf((await fetchPdf(path)).body)).join(" ");
    expect(text).toContain("Questions and answers.");
    expect(text).not.toContain("Rewritten.");
    // A new URL shows the edit.
    expect((await sheetsOf((await fetchPdf(await exported(space.spaceId, cr.id))).body)).join(" ")).toContain(
      "Rewritten.",
    );
    s.t.clock.advance(60 * 60 * 1000);
    const expired = await s.t.request.get(path).expect(410);
    expectError(expired.body, 410, "expired");
  });

  it("serves nothing for a forged or altered token", async () => {
    const { space, cr } = await tree();
    const path = await exported(space.spaceId, cr.id);
    const [payload, signature] = path.slice("/pdf/".length).split(".") as [string, string];
    const altered = JSON.parse(Buffer.from(payload, "base64url").toString());
    altered.expires += 24 * 60 * 60 * 1000;
    const forged = Buffer.from(JSON.stringify(altered)).toString("base64url");
    await s.t.request.get(`/pdf/${forged}.${signature}`).expect(404);
    await s.t.request.get(`/pdf/${payload}.${signature.slice(1)}`).expect(404);
    await s.t.request.get("/pdf/nothing").expect(404);
  });

  // A 100-page render takes about a second alone, and several times that on a busy 2-core machine.
  it("exports at most 100 pages, GitBook's soft limit, the first ones in reading order", {
    timeout: 60_000,
  }, async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const titles = Array.from({ length: 101 }, (_, i) => `Chapter ${String(i + 1).padStart(3, "0")}`);
    const body = [
      "Some **text**.",
      "- a\n- b",
      "```\ncode\n```",
      "Lorem ipsum dolor sit amet. ".repeat(30),
    ].join("\n\n");
    // An edit takes at most 50 changes.
    for (let i = 0; i < titles.length; i += 50)
      await space.edit(
        cr.number,
        titles.slice(i, i + 50).map((title) => insertPage(title, body)),
      );
    const path = await exported(space.spaceId, cr.id);
    const res = await fetchPdf(path);
    expect(res.status).toBe(200);
    const sheets = await sheetsOf(res.body);
    const firsts = sheets.map((sheet) => sheet.match(/Chapter \d{3}/)?.[0]);
    expect(firsts).toEqual(titles.slice(0, 100));
    expect(sheets.join(" ")).not.toContain(titles[100]);
  });

  it("answers 404 to who cannot read the space, 400 for `only` without a page, 404 for an unknown page", async () => {
    const { space, cr } = await tree();
    expectError((await exportUrl(space.spaceId, cr.id, s.outsider).expect(404)).body, 404);
    const guest = await guestOf(s.t, s.organizationId);
    await exportUrl(space.spaceId, cr.id, guest).expect(404);
    const other = await s.t.organization();
    await exportUrl(space.spaceId, cr.id, other.admin).expect(404);
    await exportUrl(space.spaceId, "unknown", s.reader).expect(404);
    expectError(
      (await exportUrl(space.spaceId, cr.id, s.reader, "?only=true").expect(400)).body,
      400,
      "page",
    );
    expectError(
      (await exportUrl(space.spaceId, cr.id, s.reader, "?page=unknown").expect(404)).body,
      404,
      "Page",
    );
    await exportUrl(space.spaceId, cr.id, s.reader, "?only=maybe").expect(400);
  });
});

describe("GET /v1/spaces/{spaceId}/pdf", () => {
  const spaceExport = (spaceId: string, user: TestUser | undefined, query = "") => {
    const req = s.t.request.get(`/v1/spaces/${spaceId}/pdf${query}`);
    return user ? req.set(user.auth) : req;
  };
  const textAt = async (spaceId: string, query = "") => {
    const { body } = await spaceExport(spaceId, s.reader, query).expect(200);
    const url = new URL(body.url);
    expect(url.origin).toBe("http://quire.test");
    const res = await fetchPdf(url.pathname);
    expect(res.status).toBe(200);
    expect(res.headers["content-disposition"]).toBe(`inline; filename="space-${spaceId}.pdf"`);
    return { path: url.pathname, text: (await sheetsOf(res.body)).join(" ") };
  };

  it("gives an hour-long URL of the main content as a PDF, as it was when asked for", async () => {
    const space = await newSpaceContent(s);
    const ids = await space.seed([
      insertPage("Guide", "Read **this** first."),
      insertPage("FAQ", "Questions and *answers*."),
    ]);
    await s.t.db.updateTable("spaces").set({ title: "Handbook" }).where("id", "=", space.spaceId).execute();
    const before = await textAt(space.spaceId);
    expect(before.text).toContain("Read this first.");
    expect(before.text).toContain("Questions and answers.");
    // A change request not merged is not main content.
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [updatePage(ids.FAQ as string, { markdown: "Rewritten." })]);
    expect((await textAt(space.spaceId)).text).not.toContain("Rewritten.");
    await space.merge(cr.number);
    // The first URL keeps its content; a new one shows the merge.
    expect((await sheetsOf((await fetchPdf(before.path)).body)).join(" ")).toContain(
      "Questions and answers.",
    );
    expect((await textAt(space.spaceId)).text).toContain("Rewritten.");
    const one = await textAt(space.spaceId, `?page=${ids.FAQ}&only=true`);
    expect(one.text).toContain("Rewritten.");
    expect(one.text).not.toContain("Read this first.");
    s.t.clock.advance(60 * 60 * 1000);
    expectError((await s.t.request.get(before.path).expect(410)).body, 410, "expired");
  });

  it("answers 401, 404 to who cannot read the space, 400 for `only` without a page, 404 for an unknown page", async () => {
    const space = await newSpaceContent(s);
    await spaceExport(space.spaceId, undefined).expect(401);
    expectError((await spaceExport(space.spaceId, s.outsider).expect(404)).body, 404);
    await spaceExport(space.spaceId, await guestOf(s.t, s.organizationId)).expect(404);
    await spaceExport(space.spaceId, (await s.t.organization()).admin).expect(404);
    await spaceExport("unknown", s.reader).expect(404);
    expectError((await spaceExport(space.spaceId, s.reader, "?only=true").expect(400)).body, 400, "page");
    expectError((await spaceExport(space.spaceId, s.reader, "?page=unknown").expect(404)).body, 404, "Page");
    await spaceExport(space.spaceId, s.reader, "?only=maybe").expect(400);
  });
});

describe("a PDF worth printing", () => {
  /** Guide (Install under it) and FAQ, with links between them, an image, code, a wide table and HTML. */
  async function printable() {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const upload = await s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/files`)
      .set(s.admin.auth)
      .attach("file", pngOf(40, 20), { filename: "logo.png", contentType: "image/png" })
      .expect(201);
    const columns = Array.from({ length: 9 }, (_, i) => `Column${i + 1}`);
    await space.edit(cr.number, [
      insertPage(
        "Guide",
        [
          "See [the FAQ](faq.md), [its answers](faq.md#answers), [below](#usage),",
          "[the web](https://example.com/docs) and [a page that is not there](./missing.md).",
          "",
          `![Logo](/files/${upload.body.id}) ![Gone](/files/no-such-file)`,
          "",
          // As GitBook's Git Sync writes images.
          `<figure><img src="/files/${upload.body.id}" alt="Figured"><figcaption></figcaption></figure>`,
          "",
          "## Usage",
          "",
          "```js",
          `const answer = 42; // ${"the answer to everything, ".repeat(2)}kept on one line`,
          "    indented();",
          "```",
          "",
          `| ${columns.join(" | ")} |`,
          `| ${columns.map(() => "---").join(" | ")} |`,
          `| ${columns.map((_, i) => `value${i + 1} of a wide table`).join(" | ")} |`,
          "",
          '<div>Kept <b>markup</b> text</div><script>alert("dropped")</script>',
          "",
          '{% hint style="warning" %}',
          "Hinted text.",
          "{% endhint %}",
        ].join("\n"),
      ),
      insertPage(
        "FAQ",
        "Intro.\n\n## Answers\n\nBack to [the guide](/pages/guide). Armenian: Բարեւ. Emoji: 😀.",
      ),
    ]);
    const ids = Object.fromEntries(flatten(await space.pages(cr.number)).map((p) => [p.title, p.id]));
    await space.edit(cr.number, [insertPage("Install", `Read [the FAQ](/pages/${ids.FAQ}).`, ids.Guide)]);
    const res = await fetchPdf(await exported(space.spaceId, cr.id));
    expect(res.status).toBe(200);
    return { bytes: res.body as Buffer, document: await documentOf(res.body) };
  }

  /**
   * The links of a sheet: where each leads, inside the PDF (the sheet, and how high on it) or outside
   * (the URL). pdfmake writes a link a word at a time: the words of one link count once.
   */
  async function linksOf(document: Awaited<ReturnType<typeof documentOf>>, sheet: number) {
    const annotations = await (await document.getPage(sheet)).getAnnotations();
    const targets = await Promise.all(
      annotations
        .filter((annotation) => annotation.subtype === "Link")
        .map(async (annotation) => {
          if (typeof annotation.dest !== "string") return { url: annotation.url as string };
          const destination = await document.getDestination(annotation.dest);
          const [ref, , , top] = destination as [{ num: number; gen: number }, unknown, number, number];
          return { sheet: (await document.getPageIndex(ref)) + 1, top: Math.round(top) };
        }),
    );
    return targets.filter((target, i) => JSON.stringify(target) !== JSON.stringify(targets[i - 1]));
  }

  it("links pages of the export inside the PDF, at their headings; other links lead out or stay text", async () => {
    const { document } = await printable();
    expect(document.numPages).toBe(2);
    const guide = await linksOf(document, 1);
    const faq = await linksOf(document, 2);
    const sheetTop = Math.round((await document.getPage(1)).view[3] as number);
    // The FAQ from its top, then at its heading (lower on its sheet); the Guide's own heading; the web.
    expect(guide.slice(0, 4)).toEqual([
      { sheet: 2, top: expect.any(Number) },
      { sheet: 2, top: expect.any(Number) },
      { sheet: 1, top: expect.any(Number) },
      { url: "https://example.com/docs" },
    ]);
    const [toFaq, toAnswers, toUsage] = guide.map((link) => link.top ?? Number.NaN) as [
      number,
      number,
      number,
    ];
    expect(toAnswers).toBeLessThan(toFaq);
    expect(toFaq).toBeGreaterThan(sheetTop - 100);
    expect(toUsage).toBeLessThan(sheetTop - 100);
    // Install, on the Guide's sheet, links to the FAQ; the FAQ back to the Guide.
    expect(guide.slice(4)).toEqual([{ sheet: 2, top: toFaq }]);
    expect(faq).toEqual([{ sheet: 1, top: expect.any(Number) }]);
    // The missing page's link is text alone.
    expect((await sheetsOf(Buffer.from(await document.getData())))[0]).toContain("a page that is not there");
  });

  it("embeds the revision's images, in Markdown or HTML, shows the alt text of the others, and bookmarks the page tree", async () => {
    const { document } = await printable();
    const { fnArray } = await (await document.getPage(1)).getOperatorList();
    expect(fnArray.filter((fn) => fn === OPS.paintImageXObject)).toHaveLength(2);
    const text = (await sheetsOf(Buffer.from(await document.getData()))).join(" ");
    expect(text).toContain("Gone");
    expect(text).not.toContain("Logo");
    expect(text).not.toContain("Figured");
    const outline = await document.getOutline();
    expect(outline.map(({ title, items }) => [title, items.map((item) => item.title)])).toEqual([
      ["Guide", ["Install"]],
      ["FAQ", []],
    ]);
  });

  it("keeps each code line whole and fits a wide table to the sheet; keeps HTML's text, not its scripts", async () => {
    const { document } = await printable();
    const runs = await runsOf(document, 1);
    const line = runs.filter((run) => run.y === runs.find((r) => r.str.includes("const"))?.y);
    expect(line.map((run) => run.str).join(" ")).toMatch(/^const.*kept on one line$/);
    const constX = (line[0] as { x: number }).x;
    expect((runs.find((run) => run.str.includes("indented")) as { x: number }).x).toBeGreaterThan(constX);
    const width = (await document.getPage(1)).view[2] as number;
    const table = runs.filter((run) => /^(Column|value)\d/.test(run.str));
    expect(table.filter((run) => run.str.startsWith("Column"))).toHaveLength(9);
    for (const run of table) expect(run.x + run.width).toBeLessThan(width);
    const text = (await sheetsOf(Buffer.from(await document.getData()))).join(" ");
    expect(text).toContain("Kept markup text");
    expect(text).not.toContain("dropped");
    expect(text).not.toContain("<div>");
    // GitBook's blocks as the site reads them: their contents, never their tags.
    expect(text).toContain("Hinted text.");
    expect(text).not.toContain("{%");
  });

  it.skipIf(!fallbackFonts.dejavu || !fallbackFonts.symbola)(
    "sets what Roboto lacks in fonts that cover it: DejaVu Sans, Symbola for emoji",
    async () => {
      const { bytes, document } = await printable();
      const raw = bytes.toString("latin1");
      expect(raw).toContain("DejaVuSans");
      expect(raw).toContain("Symbola");
      const faq = (await sheetsOf(Buffer.from(await document.getData())))[1];
      expect(faq).toContain("Բարեւ");
      expect(faq).toContain("😀");
    },
  );
});

describe("GET /pdf/{token}", () => {
  /** The path of a token for `pdf`, valid for the hour to come, signed with `key`. */
  const signedPath = (key: string, pdf: Omit<PdfExport, "expires">) =>
    `/pdf/${signPdfToken(key, { ...pdf, expires: s.t.clock.now().getTime() + PDF_URL_LIFETIME_MS })}`;

  /** Answers as to a path that is no route at all. */
  async function expectNoRoute(path: string) {
    const res = await s.t.request.get(path).expect(404);
    expect(res.body).toEqual((await s.t.request.get("/pdf/nothing").expect(404)).body);
  }

  const mainRevision = async (spaceId: string) =>
    (
      await s.t.db
        .selectFrom("spaces")
        .select("revision_id")
        .where("id", "=", spaceId)
        .executeTakeFirstOrThrow()
    ).revision_id;

  it("refuses a token signed with any key but the server's", async () => {
    const { space, cr } = await tree();
    const pdf = {
      spaceId: space.spaceId,
      changeRequestId: cr.id,
      revisionId: (await space.getChangeRequest(cr.number)).revision,
    };
    expect((await fetchPdf(signedPath(s.t.secretKey, pdf))).status).toBe(200);
    for (const key of [generateSecretKey(), "a constant key of thirty-two characters", ""])
      await expectNoRoute(signedPath(key, pdf));
  });

  it("serves only the change request's own revisions, older ones included", async () => {
    const space = await newSpaceContent(s);
    const pages = await space.seed([insertPage("FAQ", "Questions and *answers*.")]);
    const mainBefore = await mainRevision(space.spaceId);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [updatePage(pages.FAQ as string, { markdown: "First edit." })]);
    const older = (await space.getChangeRequest(cr.number)).revision;
    await space.edit(cr.number, [updatePage(pages.FAQ as string, { markdown: "Second edit." })]);
    const own = { spaceId: space.spaceId, changeRequestId: cr.id };

    const text = async (revisionId: string) =>
      (await sheetsOf((await fetchPdf(signedPath(s.t.secretKey, { ...own, revisionId }))).body)).join(" ");
    expect(await text(older)).toContain("First edit.");
    expect(await text((await space.getChangeRequest(cr.number)).revision)).toContain("Second edit.");
    // The revision it started from, main's at the time, is where its line begins.
    expect(await text(mainBefore)).toContain("Questions and answers.");

    // Another change request's revision, then main's once that one is merged.
    const other = await space.createChangeRequest();
    await space.edit(other.number, [insertPage("Other", "Not this one.")]);
    await expectNoRoute(
      signedPath(s.t.secretKey, {
        ...own,
        revisionId: (await space.getChangeRequest(other.number)).revision,
      }),
    );
    await space.merge(other.number);
    await expectNoRoute(signedPath(s.t.secretKey, { ...own, revisionId: await mainRevision(space.spaceId) }));
    // Main's revisions before the change request's base are not its own either.
    const { parent_id: beforeBase } = await s.t.db
      .selectFrom("revisions")
      .select("parent_id")
      .where("id", "=", mainBefore)
      .executeTakeFirstOrThrow();
    expect(beforeBase).not.toBeNull();
    await expectNoRoute(signedPath(s.t.secretKey, { ...own, revisionId: beforeBase as string }));

    // Another space's revision, named with this change request or with its own space.
    const elsewhere = await tree();
    const foreign = (await elsewhere.space.getChangeRequest(elsewhere.cr.number)).revision;
    await expectNoRoute(signedPath(s.t.secretKey, { ...own, revisionId: foreign }));
    await expectNoRoute(
      signedPath(s.t.secretKey, {
        spaceId: elsewhere.space.spaceId,
        changeRequestId: cr.id,
        revisionId: older,
      }),
    );
  });

  it("serves a space's own revisions for its main content, and no other space's", async () => {
    const space = await newSpaceContent(s);
    await space.seed([insertPage("FAQ", "Questions and *answers*.")]);
    const main = { spaceId: space.spaceId, revisionId: await mainRevision(space.spaceId) };
    expect((await fetchPdf(signedPath(s.t.secretKey, main))).status).toBe(200);
    const elsewhere = await newSpaceContent(s);
    await elsewhere.seed([insertPage("Other", "Not this one.")]);
    await expectNoRoute(signedPath(s.t.secretKey, { ...main, spaceId: elsewhere.spaceId }));
    await expectNoRoute(signedPath(s.t.secretKey, { ...main, spaceId: "unknown" }));
  });
});
