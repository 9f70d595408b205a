import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { markdown } from "@codemirror/lang-markdown";
import { EditorView, keymap } from "@codemirror/view";
import { useEffect, useRef } from "react";
import { t } from "../i18n/index.js";
import { Autosaver, type SaveOutcome, type SaveState } from "./autosave.js";

interface MarkdownSourceProps {
  /** The page's body as Markdown, and the ETag of the page as read (a save's If-Match). */
  markdown: string;
  etag: string;
  editable: boolean;
  save(markdown: string, etag: string): Promise<SaveOutcome>;
  reload(): Promise<{ body: string; etag: string }>;
  onState(state: SaveState): void;
  /** The autosaver, to flush before switching back and for the conflict's choices. */
  onSaver(saver: Autosaver<string>): void;
}

/**
 * The page's Markdown in CodeMirror: saved as typed (the server stores the body as it is sent), after
 * each pause, with If-Match. Two people's Markdown is not merged: a 412 lets the writer choose.
 */
export default function MarkdownSource({
  markdown: text,
  etag,
  editable,
  save,
  reload,
  onState,
  onSaver,
}: MarkdownSourceProps) {
  const mount = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: one source editor per body as read (the component's key)
  useEffect(() => {
    if (!mount.current) return;
    let view: EditorView | undefined;
    const saver = new Autosaver<string>(text, etag, {
      save,
      reload,
      merge: () => undefined,
      current: () => view?.state.doc.toString() ?? text,
      replace: () => {},
      onState,
    });
    onSaver(saver);
    view = new EditorView({
      parent: mount.current,
      doc: text,
      extensions: [
        history(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        markdown(),
        EditorView.lineWrapping,
        EditorView.editable.of(editable),
        EditorView.contentAttributes.of({
          role: "textbox",
          "aria-multiline": "true",
          "aria-label": t("editor.source"),
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) saver.changed();
        }),
      ],
    });
    return () => {
      void saver.flush().finally(() => saver.stop());
      view?.destroy();
    };
  }, [text, etag, editable]);

  return <div className="markdown-source" ref={mount} />;
}
