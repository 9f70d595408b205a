import { FormDialog, type FormDialogProps } from "./FormDialog.js";

/** What a dialog needs of its write: an openapi-react-query mutation. */
export interface Write<Variables, Data> {
  isPending: boolean;
  error: unknown;
  reset(): void;
  mutate(variables: Variables, options: { onSuccess(data: Data): void }): void;
}

export interface MutationDialogProps<Variables, Data>
  extends Omit<FormDialogProps, "pending" | "error" | "onSubmit"> {
  write: Write<Variables, Data>;
  /** What the write sends, read when the form is sent. */
  variables(): Variables;
  /** Runs once the write succeeded, before the dialog closes. */
  onDone?(data: Data): void;
}

/**
 * A FormDialog sending one write: its error told inside, reset when the dialog opens, and the dialog
 * closed once the write succeeded.
 */
export function MutationDialog<Variables, Data>(props: MutationDialogProps<Variables, Data>) {
  const { write, variables, onDone, onOpen, ...dialog } = props;
  return (
    <FormDialog
      {...dialog}
      pending={write.isPending}
      error={write.error}
      onOpen={() => {
        write.reset();
        onOpen?.();
      }}
      onSubmit={(close) =>
        write.mutate(variables(), {
          onSuccess: (data) => {
            onDone?.(data);
            close();
          },
        })
      }
    />
  );
}
