import { decodeEncodedWords, headerBlock, parseAddressList, parseHeaders } from "./mail-headers";
import { mailSearchFields } from "./search-fields";
import { keywordsOf, MAX_KEYWORDS } from "../sources/search-text";

describe("mail headers", () => {
  it("when a message has a body, then only the header block is read", () => {
    const raw = Buffer.from("Subject: Hello\r\nX-A: 1\r\n\r\nSubject: body\r\n");

    expect(parseHeaders(headerBlock(raw))).toEqual([
      { name: "subject", value: "Hello" },
      { name: "x-a", value: "1" },
    ]);
  });

  it("when headers are folded, then they are unfolded", () => {
    expect(parseHeaders("Subject: a long\r\n\tsubject\nTo: x@y.z")).toEqual([
      { name: "subject", value: "a long subject" },
      { name: "to", value: "x@y.z" },
    ]);
  });

  it("when words are encoded in B and Q forms and several charsets, then they are decoded", () => {
    expect(decodeEncodedWords("=?UTF-8?B?WsO8cmljaA==?=")).toBe("Zürich");
    expect(decodeEncodedWords("=?iso-8859-1?q?caf=E9_cr=E8me?=")).toBe("café crème");
    expect(decodeEncodedWords("=?UTF-8?Q?a?= =?UTF-8?Q?b?= plain =?UTF-8?Q?c?=")).toBe("ab plain c");
    expect(decodeEncodedWords("no encoding =? here")).toBe("no encoding =? here");
  });

  it("when an address list mixes quoted names, comments, groups and bare addresses, then each mailbox is parsed", () => {
    expect(
      parseAddressList(
        '"Doe, Jane" <Jane@Example.com>, bob@example.net (Bob B), Team: a@x.test, b@x.test;, =?UTF-8?B?Wm/Dqw==?= <zoe@x.test>, undisclosed-recipients:;',
      ),
    ).toEqual([
      { name: "Doe, Jane", email: "jane@example.com" },
      { name: "Bob B", email: "bob@example.net" },
      { name: "", email: "a@x.test" },
      { name: "", email: "b@x.test" },
      { name: "Zoë", email: "zoe@x.test" },
    ]);
  });

  it("when a message has no Date header, then the search date is Gmail's internal date", () => {
    const raw = Buffer.from("From: a@b.test\r\nSubject: S\r\n\r\nbody");
    const fields = mailSearchFields([raw.subarray(0, 10), raw.subarray(10)], raw.length, {
      labels: ["INBOX"],
      internalDate: Date.UTC(2026, 0, 2),
    });

    expect(fields.date).toBe("2026-01-02T00:00:00.000Z");
    expect(fields.subject).toBe("s");
    expect(fields.size).toBe(raw.length);
    expect(fields.fromEmail).toBe("a@b.test");
    expect(fields.labels).toEqual(["inbox"]);
  });

  it("when texts have many words, then keywords are distinct, lower-case and bounded", () => {
    const words = Array.from({ length: 200 }, (_, index) => `Word${index}`);

    const keywords = keywordsOf([words.join(" "), "WORD0 word1"]);

    expect(keywords).toHaveLength(MAX_KEYWORDS);
    expect(keywords[0]).toBe("word0");
    expect(new Set(keywords).size).toBe(keywords.length);
  });
});
