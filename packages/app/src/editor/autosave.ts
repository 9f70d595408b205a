/** What the editor says of its page: all stored, waiting to store, storing, refused, or met another's edit. */
export type SaveState =
  | { kind: "saved" }
  | { kind: "pending" }
  | { kind: "saving" }
  | { kind: "failed"; error: unknown; final?: boolean }
  | { kind: "conflict" };

/**
 * The server's answer to a save: the page's new ETag, or the refusal (412: it changed meanwhile), or
 * an error; `final` when trying the same again cannot help (a 4xx such as 413), so no retry is made
 * until the next change.
 */
export type SaveOutcome = { etag: string } | { stale: true } | { error: unknown; final?: boolean };

/** What an editor saves of a page (`Body`): a GitBook document, or Markdown as typed. */
export interface AutosaveOptions<Body> {
  /** Stores `body` if the page is still as `etag` tagged it. */
  save(body: Body, etag: string): Promise<SaveOutcome>;
  /** The page as the server holds it now, with its ETag (after a 412). */
  reload(): Promise<{ body: Body; etag: string }>;
  /** Puts the two edits together, or undefined when they meet (merge.ts). */
  merge(base: Body, mine: Body, theirs: Body): Body | undefined;
  /** The editor's body now. */
  current(): Body;
  /** Shows `body` in the editor (a merge of another's edit and this one's). */
  replace(body: Body): void;
  onState(state: SaveState): void;
  /** How long typing pauses before a save, and a failed save waits before trying again. */
  pauseMs?: number;
  retryMs?: number;
}

/**
 * Saves an editor's page after each pause in typing, one save at a time, each with the ETag of the
 * last (If-Match): a page changed meanwhile is never overwritten. A 412 reads the page again and
 * merges when the edits touch different blocks (then saves the merge); else it stops at `conflict`
 * until the writer chooses (`keepMine` or their version, by reloading the editor). A failed save keeps
 * the text and tries again.
 */
export class Autosaver<Body> {
  #etag: string;
  /** The document as last stored: what both sides of a conflict started from. */
  #base: Body;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #saving: Promise<void> | undefined;
  #state: SaveState = { kind: "saved" };
  #stopped = false;
  readonly #options: Required<AutosaveOptions<Body>>;

  constructor(body: Body, etag: string, options: AutosaveOptions<Body>) {
    this.#base = body;
    this.#etag = etag;
    this.#options = { pauseMs: 800, retryMs: 3000, ...options };
  }

  get state(): SaveState {
    return this.#state;
  }

  /** The editor's document changed: save once typing pauses. */
  changed(): void {
    if (this.#state.kind === "conflict") return;
    this.#set({ kind: "pending" });
    this.#schedule(this.#options.pauseMs);
  }

  /** Saves now what waits (leaving the page, closing the tab). */
  flush(): Promise<void> {
    if (this.#timer === undefined) return this.#saving ?? Promise.resolve();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    return this.#run();
  }

  /** After a conflict, the writer keeps their version: it replaces the page as the server has it now. */
  async keepMine(): Promise<void> {
    const latest = await this.#options.reload();
    this.#etag = latest.etag;
    this.#base = latest.body;
    this.#set({ kind: "pending" });
    await this.#run();
  }

  /** No more saves (the editor is gone); what waits is left to `flush` first. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }

  #schedule(ms: number) {
    if (this.#stopped) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#run();
    }, ms);
  }

  async #run(): Promise<void> {
    // One save at a time: a change during a save is saved after it, with its ETag.
    if (this.#saving) {
      await this.#saving;
      if (this.#state.kind === "pending") return this.#run();
      return;
    }
    this.#saving = this.#save().finally(() => {
      this.#saving = undefined;
    });
    return this.#saving;
  }

  async #save(): Promise<void> {
    const body = this.#options.current();
    this.#set({ kind: "saving" });
    const outcome = await this.#options.save(body, this.#etag);
    if ("etag" in outcome) {
      this.#etag = outcome.etag;
      this.#base = body;
      // Typed into while saving: that waits for its own save.
      const unchanged = JSON.stringify(this.#options.current()) === JSON.stringify(body);
      this.#set(unchanged ? { kind: "saved" } : { kind: "pending" });
      if (!unchanged) this.#schedule(this.#options.pauseMs);
      return;
    }
    if ("stale" in outcome) return this.#resolveConflict(body);
    this.#set({ kind: "failed", error: outcome.error, final: outcome.final });
    if (!outcome.final) this.#schedule(this.#options.retryMs);
  }

  async #resolveConflict(mine: Body): Promise<void> {
    const latest = await this.#options.reload();
    const merged = this.#options.merge(this.#base, mine, latest.body);
    if (!merged) {
      this.#set({ kind: "conflict" });
      return;
    }
    this.#etag = latest.etag;
    this.#base = latest.body;
    this.#options.replace(merged);
    this.#set({ kind: "pending" });
    this.#schedule(0);
  }

  #set(state: SaveState) {
    // Each keystroke says "pending" again: told once, it is not told anew (no render per key).
    const same = state.kind === this.#state.kind && state.kind !== "failed";
    this.#state = state;
    if (!same) this.#options.onState(state);
  }
}
