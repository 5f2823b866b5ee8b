/** The scale section's mailboxes: short plain messages whose words come from a seeded generator. */
import { testMessage } from "../../emulators/workspace/src/index";
import { type BenchWorkspace } from "./engine-workspace";

const WORDS =
  "the of and to in for on with at by from about meeting report invoice project team please review attached draft budget schedule client update thanks regards tomorrow friday agenda notes quarter sales offer order delivery contract question answer minutes plan".split(
    " ",
  );

/** A short plain message (text and HTML alternatives), its words from a seeded generator. */
function smallMessage(
  user: string,
  index: number,
  date: Date,
  textChars: number,
  random: () => number,
): Buffer {
  const words: string[] = [];
  let length = 0;
  while (length < textChars) {
    const word = WORDS[Math.floor(random() * WORDS.length)] as string;
    words.push(word);
    length += word.length + 1;
  }
  const lines = words.join(" ").replace(/(.{1,72})( |$)/g, "$1\r\n");
  return testMessage({
    subject: `${WORDS[index % WORDS.length]} ${index}`,
    to: user,
    date,
    messageId: `scale-${index}.${user}`,
    text: lines,
  });
}

/** A seeded generator in [0, 1) (mulberry32). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Fills each user's mailbox with `messagesPerMailbox` short messages an hour apart; the bytes inserted. */
export function fillMailboxes(
  emulator: BenchWorkspace["harness"]["emulator"],
  users: string[],
  options: { messagesPerMailbox: number; textChars: number },
  seed: number,
): number {
  const { messagesPerMailbox, textChars } = options;
  const random = seeded(seed);
  let messageBytes = 0;
  const firstDate = Date.UTC(2025, 0, 1);
  for (const user of users) {
    const userId = emulator.directory.user(user)?.id;
    if (!userId) throw new Error(`no user ${user}`);
    for (let index = 0; index < messagesPerMailbox; index += 1) {
      const date = firstDate + index * 3_600_000;
      const raw = smallMessage(user, index, new Date(date), textChars, random);
      emulator.gmail.insertMessage(userId, raw, { internalDate: date });
      messageBytes += raw.length;
    }
  }
  return messageBytes;
}
