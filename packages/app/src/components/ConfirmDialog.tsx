import { MutationDialog, type Write } from "./MutationDialog.js";

/**
 * A button (`label`, for the item named `context`) opening a dialog that asks before a destructive
 * write: `warning` says what is lost, its confirming button says `label` again.
 */
export function ConfirmDialog<Variables, Data>({
  label,
  context,
  heading,
  warning,
  write,
  variables,
}: {
  label: string;
  context: string;
  heading: string;
  warning: string;
  write: Write<Variables, Data>;
  variables(): Variables;
}) {
  return (
    <MutationDialog
      label={label}
      context={context}
      heading={heading}
      submitLabel={label}
      danger
      write={write}
      variables={variables}
    >
      <p>{warning}</p>
    </MutationDialog>
  );
}
