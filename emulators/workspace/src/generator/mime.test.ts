import { decodeWords, header, leaves, parseMessage } from "./mime-reader";
import {
  encodeWords,
  extendedParam,
  foldHeader,
  formatAddress,
  formatDate,
  quotedPrintable,
  writeMessage,
  zurichOffsetMinutes,
} from "./mime";
import { Random, seedOf } from "./random";

describe("Random", () => {
  test("when seeded alike, then numbers and bytes are identical, and the mulberry32 sequence is pinned", () => {
    const a = new Random(1);
    const b = new Random(1);
    const first = Array.from({ length: 5 }, () => a.uint32());
    expect(first).toEqual(Array.from({ length: 5 }, () => b.uint32()));
    // mulberry32(1): the reference implementation's first outputs, identical on every machine.
    expect(first.slice(0, 3)).toEqual([2693262067, 11749833, 2265367787]);
    expect(new Random(7).bytes(64)).toEqual(new Random(7).bytes(64));
    expect(new Random(7).bytes(64)).not.toEqual(new Random(8).bytes(64));
    expect(seedOf("mailbox", 1, "a@b")).toBe(seedOf("mailbox", 1, "a@b"));
    expect(seedOf("mailbox", 1, "a@b")).not.toBe(seedOf("mailbox", 2, "a@b"));
  });

  test("when drawing ints, samples and log-uniform sizes, then they stay within bounds", () => {
    const random = new Random(42);
    for (let index = 0; index < 1000; index += 1) {
      const value = random.int(3, 9);
      expect(value).toBeGreaterThanOrEqual(3);
      expect(value).toBeLessThanOrEqual(9);
      const size = random.logUniform(300, 3_000_000);
      expect(size).toBeGreaterThanOrEqual(300);
      expect(size).toBeLessThanOrEqual(3_000_000);
    }
    const sample = random.sample([1, 2, 3, 4, 5], 3);
    expect(new Set(sample).size).toBe(3);
  });
});

describe("MIME writer", () => {
  test("when a header holds accents and emoji, then RFC 2047 words of at most 75 characters decode back", () => {
    const texts = [
      "Grüezi Jürg – Offerte für die Säntis-Sitzung",
      "Apéro de fin d'année 🥂 à Genève",
      "Niccolò Lurà: Contratto firmato – grazie! ".repeat(4),
      "plain ASCII subject",
    ];
    for (const text of texts) {
      const encoded = encodeWords(text);
      for (const word of encoded.split(" ")) expect(word.length).toBeLessThanOrEqual(75);
      expect(decodeWords(encoded)).toBe(text);
    }
    expect(encodeWords("plain ASCII subject")).toBe("plain ASCII subject");
    expect(formatAddress("Léa Favre", "lea@x.test")).toMatch(/^=\?UTF-8\?B\?.+\?= <lea@x\.test>$/);
    expect(formatAddress("Müller, Hans", "h@x.test")).toMatch(/^=\?UTF-8\?B\?/);
    expect(formatAddress("Meier, Hans", "h@x.test")).toBe('"Meier, Hans" <h@x.test>');
    expect(decodeURIComponent(extendedParam("Règlement (v2).pdf").replace("UTF-8''", ""))).toBe(
      "Règlement (v2).pdf",
    );
  });

  test("when a long header is folded, then every line fits 78 characters and unfolds to the value", () => {
    const ids = Array.from({ length: 8 }, (_, index) => `<CA${"F".repeat(24)}${index}@mail.gmail.com>`);
    const folded = foldHeader("References", ids.join(" "));
    for (const line of folded.split("\r\n")) expect(line.length).toBeLessThanOrEqual(78);
    expect(folded.replace(/\r\n /g, " ")).toBe(`References: ${ids.join(" ")}`);
  });

  test("when text is quoted-printable encoded, then lines fit 76 characters and decode to the UTF-8 text", () => {
    const text = `${"Grüsse aus Zürich = schön. ".repeat(10)}\nZweite Zeile mit Leerzeichen am Ende \nÉté`;
    const encoded = quotedPrintable(text);
    for (const line of encoded.split("\r\n")) expect(line.length).toBeLessThanOrEqual(76);
    const raw = writeMessage([["Subject", "x"]], {
      kind: "leaf",
      contentType: "text/plain; charset=UTF-8",
      encoding: "quoted-printable",
      body: Buffer.from(text),
    });
    expect(parseMessage(raw).body?.toString("utf8")).toBe(text.replace(/\n/g, "\r\n"));
  });

  test("when a nested multipart message is written, then it parses with balanced boundaries and intact bytes", () => {
    const image = new Random(3).bytes(5000);
    const raw = writeMessage(
      [
        ["From", formatAddress("Ueli", "u@x.test")],
        ["Subject", encodeWords("Prüfung")],
      ],
      {
        kind: "multipart",
        subtype: "mixed",
        boundary: "b1=_part",
        parts: [
          {
            kind: "multipart",
            subtype: "alternative",
            boundary: "b2=_part",
            parts: [
              { kind: "leaf", contentType: "text/plain", encoding: "7bit", body: Buffer.from("Hallo") },
              {
                kind: "leaf",
                contentType: "text/html",
                encoding: "base64",
                body: Buffer.from("<p>Hällo</p>"),
              },
            ],
          },
          { kind: "leaf", contentType: 'image/png; name="a.png"', encoding: "base64", body: image },
        ],
      },
    );
    const parsed = parseMessage(raw);
    expect(parsed.mimeType).toBe("multipart/mixed");
    expect(decodeWords(header(parsed, "Subject") ?? "")).toBe("Prüfung");
    const parts = leaves(parsed);
    expect(parts.map((part) => part.mimeType)).toEqual(["text/plain", "text/html", "image/png"]);
    expect(parts[1]?.body?.toString("utf8")).toBe("<p>Hällo</p>");
    expect(parts[2]?.body).toEqual(image);
    expect(parts[2]?.params.name).toBe("a.png");
    expect(() =>
      parseMessage(Buffer.from(raw.toString("latin1").replace("--b1=_part--", ""), "latin1")),
    ).toThrow(/never closed/);
  });

  test("when formatting dates, then Zurich summer and winter offsets are used", () => {
    expect(zurichOffsetMinutes(Date.UTC(2026, 6, 1))).toBe(120);
    expect(zurichOffsetMinutes(Date.UTC(2026, 0, 15))).toBe(60);
    // 2026: summer time from 29 March 01:00 UTC to 25 October 01:00 UTC.
    expect(zurichOffsetMinutes(Date.UTC(2026, 2, 29, 0, 59))).toBe(60);
    expect(zurichOffsetMinutes(Date.UTC(2026, 2, 29, 1, 0))).toBe(120);
    expect(zurichOffsetMinutes(Date.UTC(2026, 9, 25, 1, 0))).toBe(60);
    expect(formatDate(Date.UTC(2026, 6, 14, 7, 12, 3))).toBe("Tue, 14 Jul 2026 09:12:03 +0200");
    expect(Date.parse(formatDate(Date.UTC(2025, 11, 24, 16, 0, 0)))).toBe(Date.UTC(2025, 11, 24, 16, 0, 0));
  });
});
