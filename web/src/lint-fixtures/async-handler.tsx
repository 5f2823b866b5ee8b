/** An async click handler: React ignores its promise, so a failure is never heard. */
async function save(): Promise<void> {
  throw new Error("Not saved");
}

export function SaveButton() {
  return (
    <button
      onClick={async () => {
        await save();
      }}
    >
      Save
    </button>
  );
}
