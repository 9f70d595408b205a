import type { DocumentBlock, JSONDocument } from "@quire/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Autosaver, type SaveOutcome, type SaveState } from "./autosave.js";
import { mergeBlocks } from "./merge.js";

const paragraph = (key: string, text: string): DocumentBlock => ({
  object: "block",
  type: "paragraph",
  key,
  nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }],
});
const doc = (...nodes: DocumentBlock[]): JSONDocument => ({ object: "document", data: {}, nodes });

/** A server holding one page: its document and ETag, answering saves as the API does. */
function server(document: JSONDocument) {
  const page = { document, etag: '"1"', saves: 0 };
  return {
    page,
    save: vi.fn(async (sent: JSONDocument, etag: string): Promise<SaveOutcome> => {
      if (etag !== page.etag) return { stale: true };
      page.saves += 1;
      page.document = sent;
      page.etag = `"${page.saves + 1}"`;
      return { etag: page.etag };
    }),
    reload: async () => ({ body: page.document, etag: page.etag }),
  };
}

describe("mergeBlocks", () => {
  const base = doc(paragraph("a", "one"), paragraph("b", "two"), paragraph("c", "three"));

  it("keeps both sides' edits of blocks apart, and a block added away from the other's edit", () => {
    const mine = doc(paragraph("a", "ONE"), paragraph("b", "two"), paragraph("c", "three"));
    const theirs = doc(paragraph("a", "one"), paragraph("b", "two"), paragraph("c", "THREE"));
    expect(mergeBlocks(base, mine, theirs)).toEqual(
      doc(paragraph("a", "ONE"), paragraph("b", "two"), paragraph("c", "THREE")),
    );
    const added = doc(
      paragraph("a", "one"),
      paragraph("b", "two"),
      paragraph("c", "three"),
      paragraph("d", "four"),
    );
    const edited = doc(paragraph("a", "ONE"), paragraph("b", "two"), paragraph("c", "three"));
    expect(mergeBlocks(base, added, edited)?.nodes).toEqual([...edited.nodes, paragraph("d", "four")]);
  });

  it("gives up when both changed one block, or blocks next to each other", () => {
    const mine = doc(paragraph("a", "mine"), paragraph("b", "two"), paragraph("c", "three"));
    const theirs = doc(paragraph("a", "theirs"), paragraph("b", "two"), paragraph("c", "three"));
    expect(mergeBlocks(base, mine, theirs)).toBeUndefined();
    const next = doc(paragraph("a", "one"), paragraph("b", "TWO"), paragraph("c", "three"));
    expect(mergeBlocks(base, mine, next)).toBeUndefined();
  });
});

describe("Autosaver", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** An editor over `server`'s page: what it holds, the states it told. */
  function editor(remote: ReturnType<typeof server>) {
    let current = remote.page.document;
    const states: SaveState["kind"][] = [];
    const saver = new Autosaver(current, remote.page.etag, {
      save: remote.save,
      reload: remote.reload,
      merge: mergeBlocks,
      current: () => current,
      replace: (document) => {
        current = document;
      },
      onState: (state) => states.push(state.kind),
    });
    return {
      saver,
      states,
      type(document: JSONDocument) {
        current = document;
        saver.changed();
      },
      get current() {
        return current;
      },
    };
  }

  it("saves once typing pauses, with the ETag of the last save", async () => {
    const remote = server(doc(paragraph("a", "one")));
    const writer = editor(remote);
    writer.type(doc(paragraph("a", "o")));
    writer.type(doc(paragraph("a", "on")));
    await vi.advanceTimersByTimeAsync(500);
    expect(remote.save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(400);
    expect(remote.save).toHaveBeenCalledTimes(1);
    expect(remote.page.document).toEqual(doc(paragraph("a", "on")));
    writer.type(doc(paragraph("a", "one!")));
    await writer.saver.flush();
    expect(remote.save).toHaveBeenLastCalledWith(doc(paragraph("a", "one!")), '"2"');
    expect(writer.saver.state.kind).toBe("saved");
    // Told once per change of state: not once per keystroke.
    expect(writer.states).toEqual(["pending", "saving", "saved", "pending", "saving", "saved"]);
  });

  it("merges another's edit of another block after a 412, then saves the merge", async () => {
    const remote = server(doc(paragraph("a", "one"), paragraph("b", "two"), paragraph("c", "three")));
    const writer = editor(remote);
    // Someone else saves first.
    await remote.save(doc(paragraph("a", "one"), paragraph("b", "two"), paragraph("c", "THREE")), '"1"');
    writer.type(doc(paragraph("a", "ONE"), paragraph("b", "two"), paragraph("c", "three")));
    await vi.advanceTimersByTimeAsync(1000);
    expect(remote.page.document).toEqual(
      doc(paragraph("a", "ONE"), paragraph("b", "two"), paragraph("c", "THREE")),
    );
    expect(writer.current).toEqual(remote.page.document);
    expect(writer.saver.state.kind).toBe("saved");
  });

  it("stops at a conflict when both changed one block, until the writer keeps theirs or mine", async () => {
    const remote = server(doc(paragraph("a", "one")));
    const writer = editor(remote);
    await remote.save(doc(paragraph("a", "theirs")), '"1"');
    writer.type(doc(paragraph("a", "mine")));
    await vi.advanceTimersByTimeAsync(1000);
    expect(writer.saver.state.kind).toBe("conflict");
    expect(remote.page.document).toEqual(doc(paragraph("a", "theirs")));
    writer.type(doc(paragraph("a", "mine, more")));
    await vi.advanceTimersByTimeAsync(1000);
    expect(remote.page.document, "nothing saved over theirs").toEqual(doc(paragraph("a", "theirs")));
    await writer.saver.keepMine();
    expect(remote.page.document).toEqual(doc(paragraph("a", "mine, more")));
    expect(writer.saver.state.kind).toBe("saved");
  });

  it("does not try a refused save again until the next change", async () => {
    const remote = server(doc(paragraph("a", "one")));
    const writer = editor(remote);
    remote.save.mockResolvedValueOnce({ error: new Error("413"), final: true });
    writer.type(doc(paragraph("a", "two")));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(remote.save).toHaveBeenCalledTimes(1);
    expect(writer.saver.state).toMatchObject({ kind: "failed", final: true });
    writer.type(doc(paragraph("a", "three")));
    await vi.advanceTimersByTimeAsync(1000);
    expect(remote.page.document).toEqual(doc(paragraph("a", "three")));
  });

  it("keeps the text after a failed save and tries again", async () => {
    const remote = server(doc(paragraph("a", "one")));
    const writer = editor(remote);
    remote.save.mockResolvedValueOnce({ error: new Error("offline") });
    writer.type(doc(paragraph("a", "two")));
    await vi.advanceTimersByTimeAsync(900);
    expect(writer.saver.state.kind).toBe("failed");
    expect(writer.current).toEqual(doc(paragraph("a", "two")));
    await vi.advanceTimersByTimeAsync(3000);
    expect(remote.page.document).toEqual(doc(paragraph("a", "two")));
    expect(writer.saver.state.kind).toBe("saved");
  });
});
