/** A form's save button (off while `pending`, or while `blocked`), then its status: `saved` once saved. */
export function SaveActions({
  label,
  saved,
  save,
  blocked = false,
  statusClass,
}: {
  label: string;
  saved: string;
  save: { isPending: boolean; isSuccess: boolean };
  blocked?: boolean;
  statusClass: string;
}) {
  return (
    <div className="form-actions">
      <button type="submit" disabled={blocked || save.isPending}>
        {label}
      </button>
      <p role="status" className={statusClass}>
        {save.isSuccess ? saved : ""}
      </p>
    </div>
  );
}
