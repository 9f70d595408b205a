import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  expectError,
  newSpaceContent,
} from "../change-requests/testing.js";
import type { TestUser } from "../testing/harness.js";
import { inspectFile } from "./inspect.js";
import { pngOf } from "./testing.js";

/** Room for a draw.io export, whose root tag carries the whole diagram. */
const LIMIT = 1024 * 1024;

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario({ maxUploadBytes: LIMIT });
});
afterAll(() => s.t.close());

type File = Schema<"RevisionFile">;

function upload(
  spaceId: string,
  cr: number | string,
  user: TestUser,
  {
    name = "logo.png",
    type = "image/png",
    bytes = pngOf(3, 2),
  }: { name?: string; type?: string; bytes?: Buffer } = {},
) {
  return s.t.request
    .post(`/v1/spaces/${spaceId}/change-requests/${cr}/files`)
    .set(user.auth)
    .attach("file", bytes, { filename: name, contentType: type });
}

/** The path of a download URL, for the test agent. */
const pathOf = (url: string) => new URL(url).pathname;

describe("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/files", () => {
  it("stores an image with its dimensions, readable in the change request and downloadable", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest(s.editor);
    const res = await upload(space.spaceId, cr.number, s.editor).expect(201);
    const file: File = res.body;
    expect(file).toMatchObject({
      id: expect.any(String),
      name: "logo.png",
      contentType: "image/png",
      size: pngOf(3, 2).byteLength,
      dimensions: { width: 3, height: 2 },
    });

    const got = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/files/${file.id}`)
      .set(s.reader.auth)
      .expect(200);
    expect(got.body).toEqual(file);
    const list = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/files`)
      .set(s.reader.auth)
      .expect(200);
    expect(list.body).toEqual({ count: 1, items: [file] });

    const download = await s.t.request.get(pathOf(file.downloadURL)).expect(200);
    expect(download.headers["content-type"]).toBe("image/png");
    expect(download.headers["x-content-type-options"]).toBe("nosniff");
    expect(download.headers["content-disposition"]).toBe("inline; filename*=UTF-8''logo.png");
    expect(Buffer.compare(download.body as Buffer, pngOf(3, 2))).toBe(0);
  });

  it("lets the bytes decide an undeclared type, and serves other types as attachments", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    // A path in the part's file name is dropped: only the name is kept.
    const pathed = await upload(space.spaceId, cr.number, s.admin, { name: "../dir/b.png" }).expect(201);
    expect(pathed.body.name).toBe("b.png");
    const sniffed = await upload(space.spaceId, cr.number, s.admin, {
      type: "application/octet-stream",
    }).expect(201);
    expect(sniffed.body).toMatchObject({ contentType: "image/png", dimensions: { width: 3, height: 2 } });

    const text = await upload(space.spaceId, cr.number, s.admin, {
      name: "notes é.txt",
      type: "text/plain",
      bytes: Buffer.from("hello"),
    }).expect(201);
    expect(text.body).toMatchObject({ contentType: "text/plain", size: 5 });
    expect(text.body.dimensions).toBeUndefined();
    const download = await s.t.request.get(pathOf(text.body.downloadURL)).expect(200);
    expect(download.headers["content-type"]).toMatch(/^text\/plain/);
    expect(download.headers["content-disposition"]).toBe("attachment; filename*=UTF-8''notes%20%C3%A9.txt");
    expect(download.text).toBe("hello");
  });

  it("answers 404 in another organization, 403 to a reader", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    expectError((await upload(space.spaceId, cr.number, s.outsider).expect(404)).body, 404);
    expectError((await upload(space.spaceId, "nope", s.admin).expect(404)).body, 404);
    expectError((await upload(space.spaceId, cr.number, s.reader).expect(403)).body, 403);
    const list = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/files`)
      .set(s.admin.auth)
      .expect(200);
    expect(list.body).toEqual({ count: 0, items: [] });
  });

  it("answers 400 for a type the bytes contradict, a missing name or an empty file; 413 past the limit", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const text = Buffer.from("<html><script>alert(1)</script></html>");
    expectError(
      (await upload(space.spaceId, cr.number, s.admin, { bytes: text }).expect(400)).body,
      400,
      "image/png",
    );
    expectError(
      (await upload(space.spaceId, cr.number, s.admin, { type: "text/html" }).expect(400)).body,
      400,
      "image/png",
    );
    expectError(
      (await upload(space.spaceId, cr.number, s.admin, { name: "" }).expect(400)).body,
      400,
      "file name",
    );
    expectError(
      (await upload(space.spaceId, cr.number, s.admin, { bytes: Buffer.alloc(0) }).expect(400)).body,
      400,
    );
    expectError(
      (
        await upload(space.spaceId, cr.number, s.admin, {
          type: "text/plain",
          bytes: Buffer.alloc(LIMIT + 1),
        }).expect(413)
      ).body,
      413,
    );
    const list = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/files`)
      .set(s.admin.auth)
      .expect(200);
    expect(list.body.count).toBe(0);
  });

  it("stores an SVG however large its root tag, as draw.io exports are, and refuses other text as SVG", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const cells = "&lt;mxCell id=&quot;n&quot; value=&quot;Étape&quot; vertex=&quot;1&quot;/&gt;".repeat(
      8000,
    );
    const drawing = Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="321px" height="181px" viewBox="-0.5 -0.5 321 181" content="&lt;mxfile host=&quot;app.diagrams.net&quot;&gt;&lt;diagram&gt;${cells}&lt;/diagram&gt;&lt;/mxfile&gt;"><defs/><g><rect x="0" y="0" width="320" height="180"/></g></svg>`,
    );
    expect(drawing.byteLength).toBeGreaterThan(600_000);
    const stored = await upload(space.spaceId, cr.number, s.editor, {
      name: "flow.drawio.svg",
      type: "image/svg+xml",
      bytes: drawing,
    }).expect(201);
    expect(stored.body).toMatchObject({
      contentType: "image/svg+xml",
      size: drawing.byteLength,
      dimensions: { width: 321, height: 181 },
    });
    const download = await s.t.request.get(pathOf(stored.body.downloadURL)).buffer(true).expect(200);
    expect(download.headers["content-type"]).toBe("image/svg+xml");
    expect(Buffer.compare(download.body as Buffer, drawing)).toBe(0);

    for (const text of [
      "hello",
      '<html><body><svg width="10" height="10"></svg></body></html>',
      '<?xml version="1.0"?><figure><svg width="10" height="10"/></figure>',
    ])
      expectError(
        (
          await upload(space.spaceId, cr.number, s.editor, {
            name: "drawing.svg",
            type: "image/svg+xml",
            bytes: Buffer.from(text),
          }).expect(400)
        ).body,
        400,
        "The file's bytes are not an image of type image/svg+xml",
      );
  });

  it("refuses files in a merged change request (409)", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await space.merge(cr.number);
    expectError(
      (await upload(space.spaceId, cr.number, s.admin).expect(409)).body,
      409,
      "merged",
      "change_request_closed",
    );
  });
});

describe("files per revision", () => {
  it("shows a change request's files to main only once it is merged, and main's files to change requests", async () => {
    const space = await newSpaceContent(s);
    const first = await space.createChangeRequest();
    const other = await space.createChangeRequest();
    const file: File = (await upload(space.spaceId, first.number, s.admin)).body;
    const mainFiles = () =>
      s.t.request.get(`/v1/spaces/${space.spaceId}/content/files`).set(s.reader.auth).expect(200);
    const filesOf = (cr: string) =>
      s.t.request
        .get(`/v1/spaces/${space.spaceId}/change-requests/${cr}/content/files`)
        .set(s.reader.auth)
        .expect(200);

    expect((await mainFiles()).body.count).toBe(0);
    expect((await filesOf(other.id)).body.count).toBe(0);
    await s.t.request
      .get(`/v1/spaces/${space.spaceId}/content/files/${file.id}`)
      .set(s.reader.auth)
      .expect(404);

    await space.merge(first.number);
    expect((await mainFiles()).body).toEqual({ count: 1, items: [file] });
    expect((await filesOf(other.id)).body).toEqual({ count: 1, items: [file] });
    const got = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/content/files/${file.id}`)
      .set(s.reader.auth)
      .expect(200);
    expect(got.body).toEqual(file);
    await s.t.request
      .get(`/v1/spaces/${space.spaceId}/content/files/${file.id}`)
      .set(s.outsider.auth)
      .expect(404);
  });

  it("lists in each revision the files it had when it was made, and never changes an older one", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const revisionOf = async (path: string) =>
      (await s.t.request.get(`/v1/spaces/${space.spaceId}/${path}`).set(s.reader.auth).expect(200))
        .body as Schema<"Revision">;
    const crRevision = () => revisionOf(`change-requests/${cr.id}/content`);
    const before = await crRevision();
    const mainBefore = await revisionOf("content");
    s.t.clock.advance(1000);
    const file: File = (await upload(space.spaceId, cr.number, s.admin)).body;
    // The upload made a revision of its own, which lists the file; the one before still does not.
    const after = await crRevision();
    expect(after.id).not.toBe(before.id);
    expect(after.files).toEqual([file]);
    expect(await revisionOf(`revisions/${before.id}`)).toEqual(before);
    expect(before.files).toEqual([]);
    s.t.clock.advance(1000);
    await space.merge(cr.number);
    expect((await revisionOf("content")).files).toEqual([file]);
    expect(await revisionOf(`revisions/${mainBefore.id}`)).toEqual(mainBefore);
    expect(mainBefore.files).toEqual([]);
  });

  it("pages through files", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    for (const name of ["a.png", "b.png", "c.png"])
      await upload(space.spaceId, cr.number, s.admin, { name }).expect(201);
    const first = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/files?limit=2`)
      .set(s.admin.auth)
      .expect(200);
    expect(first.body.count).toBe(3);
    expect(first.body.items).toHaveLength(2);
    const second = await s.t.request
      .get(
        `/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/files?limit=2&page=${first.body.next.page}`,
      )
      .set(s.admin.auth)
      .expect(200);
    expect(second.body.items.map((f: File) => f.name)).toEqual(["c.png"]);
  });

  it("does not serve a file whose URL carries a wrong signature", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const file: File = (await upload(space.spaceId, cr.number, s.admin)).body;
    const forged = pathOf(file.downloadURL).replace(
      /\/files\/([^/]+)\/[^/]+\//,
      "/files/$1/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/",
    );
    await s.t.request.get(forged).expect(404);
  });
});

describe("inspectFile", () => {
  const svg = (text: string) => inspectFile(Buffer.from(text), "application/octet-stream");

  it("reads an SVG after any XML declaration, comments, processing instructions and doctype", () => {
    for (const text of [
      '<svg width="2" height="1"/>',
      "\uFEFF <svg width='2' height='1'></svg>",
      '<?xml version="1.0"?>\n<?xml-stylesheet href="a.css"?><!-- <html> --><svg\n width="2"\theight="1" >',
      '<!DOCTYPE svg [ <!ENTITY e "]>"> <!-- ] > --> ]><svg width="2" height="1"/>',
      '<svg data-x="a>b" width="2" height="1"/>',
    ])
      expect(svg(text)).toMatchObject({ contentType: "image/svg+xml" });
    expect(svg('<svg width="2" height="1"/>')).toEqual({ contentType: "image/svg+xml", width: 2, height: 1 });
  });

  it("sizes an SVG by its width and height, else by its viewBox, else not at all", () => {
    const size = (attributes: string) => {
      const { width, height } = svg(`<svg ${attributes}/>`);
      return { width, height };
    };
    expect(size('width="1in" height="3pt"')).toEqual({ width: 96, height: 4 });
    expect(size('viewBox="0,0,40,20"')).toEqual({ width: 40, height: 20 });
    expect(size('width="100%" height="100%" viewBox="0 0 40 20"')).toEqual({ width: 40, height: 20 });
    expect(size('width="80" viewBox="0 0 40 20"')).toEqual({ width: 80, height: 40 });
    expect(size('height="10mm" viewBox="0 0 40 20"')).toEqual({ width: 76, height: 38 });
    expect(size('xmlns="http://www.w3.org/2000/svg"')).toEqual({ width: null, height: null });
  });

  it("takes for an SVG only a document whose root element is svg", () => {
    for (const text of [
      "<svgz/>",
      'text <svg width="1" height="1"/>',
      "<!-- unclosed <svg/>",
      '<svg width="1"height="1"/>',
      '<svg width="1/>',
      "<!DOCTYPE svg><!DOCTYPE svg><svg/>",
    ])
      expect(svg(text)).toEqual({ contentType: "application/octet-stream", width: null, height: null });
  });
});
