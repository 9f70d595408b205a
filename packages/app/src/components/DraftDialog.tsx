import { type ReactNode, useState } from "react";
import { MutationDialog, type MutationDialogProps } from "./MutationDialog.js";

export interface DraftDialogProps<Draft, Variables, Data>
  extends Omit<MutationDialogProps<Variables, Data>, "variables" | "onOpen" | "onClose" | "children"> {
  /** The draft the dialog starts from, each time it opens. */
  initial(): Draft;
  /** What the write sends of `draft`. */
  variables(draft: Draft): Variables;
  /** What is kept of the draft once the dialog closes (a secret typed is not). */
  keep?(draft: Draft): Draft;
  fields(draft: Draft, onChange: (draft: Draft) => void): ReactNode;
}

/** A MutationDialog whose form edits a draft, started afresh from `initial` each time it opens. */
export function DraftDialog<Draft, Variables, Data>(props: DraftDialogProps<Draft, Variables, Data>) {
  const { initial, variables, keep, fields, ...dialog } = props;
  const [draft, setDraft] = useState(initial);
  return (
    <MutationDialog
      {...dialog}
      onOpen={() => setDraft(initial())}
      onClose={keep && (() => setDraft(keep))}
      variables={() => variables(draft)}
    >
      {fields(draft, setDraft)}
    </MutationDialog>
  );
}
