import { randomBytes } from "node:crypto";
import { readRawMessage } from "./raw";

async function* pieces(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let index = 0; index < bytes.length; index += size) yield bytes.subarray(index, index + size);
}

describe("readRawMessage", () => {
  const raw = randomBytes(3001);
  const json = JSON.stringify({
    id: "18c",
    threadId: "18c",
    labelIds: ["INBOX", "raw"],
    nested: { raw: "not the message" },
    snippet: 'a "raw": "quoted" \\ text',
    sizeEstimate: 3001,
    raw: raw.toString("base64url"),
    historyId: "1042",
    internalDate: "1700000000000",
  });

  it.each([1, 2, 3, 7, 64, 4096, json.length])(
    "when the answer arrives in pieces of %i bytes, then the raw bytes and the other fields are exact",
    async (size) => {
      const { message, raw: parts, rawLength } = await readRawMessage(pieces(json, size));

      expect(Buffer.concat(parts).equals(raw)).toBe(true);
      expect(rawLength).toBe(raw.length);
      expect(message).toEqual({ ...(JSON.parse(json) as object), raw: "" });
    },
  );

  it("when the raw string contains JSON escapes, then they are decoded before base64", async () => {
    const data = Buffer.from("Subject: hi\r\n\r\nbody?>>");
    const escaped = data.toString("base64").replace(/\//g, "\\/").replace(/\+/g, "\\u002b");

    const { raw: parts } = await readRawMessage(pieces(`{"raw":"${escaped}","id":"1"}`, 5));

    expect(Buffer.concat(parts).equals(data)).toBe(true);
  });

  it("when the answer is cut short, then reading fails instead of returning part of the message", async () => {
    await expect(readRawMessage(pieces(json.slice(0, json.length / 2), 100))).rejects.toThrow(
      "The message answer ended early",
    );
  });
});
