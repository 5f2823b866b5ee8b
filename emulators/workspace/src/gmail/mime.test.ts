import { decodeWords, decodedBody, parseMime, parseParameterized, snippetOf } from "./mime";

test("when headers use RFC 2047 words and folding, then they are unfolded and decoded as Gmail shows them", () => {
  const part = parseMime(
    Buffer.from("Subject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe?=\r\n =?ISO-8859-1?B?aOR0?=\r\nFrom: a@b.c\r\n\r\nbody"),
  );
  expect(part.headers.map((item) => item.name)).toEqual(["Subject", "From"]);
  expect(decodeWords(part.headers[0]?.value ?? "")).toBe("Grüßehät");
});

test("when a filename uses RFC 2231 continuations, then it is put together and decoded", () => {
  const { params } = parseParameterized(
    "attachment; filename*0*=UTF-8''Z%C3%BCrich%20; filename*1=\"report.pdf\"",
  );
  expect(params.filename).toBe("Zürich report.pdf");
});

test("when a part is quoted-printable or base64, then its body is decoded", () => {
  const message = Buffer.from(
    [
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      "preamble",
      "--b",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "caf=C3=A9 soft=",
      "break",
      "--b",
      'Content-Type: application/octet-stream; name="x.bin"',
      "Content-Transfer-Encoding: base64",
      "",
      "AAEC",
      "AwQ=",
      "--b--",
      "",
    ].join("\r\n"),
  );
  const root = parseMime(message);
  expect(root.parts.map((part) => part.partId)).toEqual(["0", "1"]);
  expect(decodedBody(root.parts[0] as (typeof root.parts)[0]).toString("utf8")).toBe("café softbreak");
  expect([...decodedBody(root.parts[1] as (typeof root.parts)[0])]).toEqual([0, 1, 2, 3, 4]);
  expect(root.parts[1]?.filename).toBe("x.bin");
});

test("when text is long, then the snippet is cut near 200 characters and HTML-escaped", () => {
  const snippet = snippetOf(`<b> & ${"word ".repeat(100)}`);
  expect(snippet.startsWith("&lt;b&gt; &amp; word")).toBe(true);
  expect(snippet.length).toBeLessThanOrEqual(220);
});
