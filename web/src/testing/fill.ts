/** Filling a text field as a user does who pastes its value (one input event, not one per character). */
import type { UserEvent } from "@testing-library/user-event";

/** Empties `field` and pastes `text` into it (nothing for ""). */
export async function fill(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.clear(field);
  if (text !== "") await user.paste(text);
}
