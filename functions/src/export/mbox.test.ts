import { mboxEntry, parseMbox, separator } from "./mbox";

describe("mboxrd", () => {
  test("when messages with 'From ' lines and quoted lines are written, then reading the file gives each message back byte for byte", () => {
    const messages = [
      Buffer.from("Subject: one\r\n\r\nFrom the start\r\n>From quoted already\r\nplain\r\n", "latin1"),
      Buffer.from("Subject: two\n\nno from lines here\n", "latin1"),
      Buffer.from([0x53, 0x3a, 0x20, 0xe9, 0xff, 0x0d, 0x0a, 0x0d, 0x0a, 0x80, 0x0a]),
    ];
    const file = Buffer.concat(
      messages.map((raw, index) =>
        mboxEntry(raw, "ada@example.test", new Date(Date.UTC(2026, 0, index + 1))),
      ),
    );
    expect(file.toString("latin1")).toContain("\n>From the start\r\n>>From quoted already\r\n");
    const read = parseMbox(file);
    expect(read).toHaveLength(3);
    read.forEach((raw, index) => expect(raw.equals(messages[index]!)).toBe(true));
  });

  test("when the separator is made, then it has the sender (or MAILER-DAEMON) and an asctime date", () => {
    const date = new Date(Date.UTC(2026, 10, 2, 9, 5, 7));
    expect(separator("ada@example.test", date)).toBe("From ada@example.test Mon Nov 02 09:05:07 2026\n");
    expect(separator("not an address", date)).toBe("From MAILER-DAEMON Mon Nov 02 09:05:07 2026\n");
  });
});
