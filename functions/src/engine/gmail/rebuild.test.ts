import type { gmail_v1 } from "@googleapis/gmail";
import { itemErrorReason } from "../runner/run-errors";
import { MessageWithoutContentError, rebuildMessage, type MessagePart } from "./rebuild";

const data = (text: string | Buffer): string => Buffer.from(text).toString("base64url");
const noAttachments = (): Promise<Buffer> => Promise.reject(new Error("no attachment expected"));

function leaf(mimeType: string, body: string | Buffer, headers: gmail_v1.Schema$MessagePartHeader[] = []) {
  return {
    mimeType,
    headers: [{ name: "Content-Type", value: mimeType }, ...headers],
    body: { size: Buffer.from(body).length, data: data(body) },
  };
}

describe("rebuildMessage", () => {
  it("when the payload is missing or empty, then it throws an error the runner records on the item", async () => {
    for (const payload of [undefined, null, { mimeType: "text/plain", headers: [], body: { size: 0 } }]) {
      const error = await rebuildMessage("m1", payload, noAttachments).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(MessageWithoutContentError);
      expect(itemErrorReason(error)).toBe("no-message-content");
    }
  });

  it("when a part's body is not short ASCII lines, then it is written in base64; an attached message never is", async () => {
    const long = "x".repeat(1200);
    const inner = "Subject: caf\u00e9\r\n\r\nbonjour\r\n";
    const payload: MessagePart = {
      mimeType: "multipart/mixed",
      headers: [
        { name: "Subject", value: "Parts" },
        { name: "Content-Type", value: 'multipart/mixed; boundary="old"; charset=x' },
        { name: "Content-Transfer-Encoding", value: "quoted-printable" },
      ],
      parts: [
        leaf("text/plain", long, [{ name: "Content-Transfer-Encoding", value: "quoted-printable" }]),
        leaf("message/rfc822", inner),
      ],
    };

    const text = (await rebuildMessage("m1", payload, noAttachments)).toString("utf8");

    const boundary = /boundary="([^"]+)"/.exec(text)?.[1] ?? "";
    expect(text).toMatch(/^Content-Type: multipart\/mixed; charset=x; boundary="rebuilt-[0-9a-f]{32}"$/m);
    expect(text).not.toContain("quoted-printable");
    expect(text).toContain(`Content-Transfer-Encoding: base64\r\n\r\n${"eHh4".repeat(19)}\r\n`);
    expect(text).toContain(`Content-Transfer-Encoding: 8bit\r\n\r\n${inner}`);
    expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
    expect(text.split(`--${boundary}\r\n`)).toHaveLength(3);
    expect(text).toMatch(/^MIME-Version: 1\.0$/m);
  });

  it("when header values are decoded text, then unstructured ones and display names become encoded words and line breaks go", async () => {
    const payload: MessagePart = leaf("text/plain", "hi", [
      { name: "Subject", value: "Gr\u00fc\u00dfe\r\naus Z\u00fcrich" },
      { name: "From", value: '"M\u00fcller, J\u00fcrgen" <j@x.de>, plain@x.de' },
      { name: "X-Note", value: "n\u00e4her" },
      { name: "Bad Name", value: "dropped" },
    ]);

    const head =
      (await rebuildMessage("m1", payload, noAttachments)).toString("utf8").split("\r\n\r\n")[0] ?? "";

    const word = (text: string): string => `=?UTF-8?B?${Buffer.from(text).toString("base64")}?=`;
    expect(head).toContain(`Subject: ${word("Grüße aus Zürich")}`);
    expect(head).toContain(`From: ${word("Müller, Jürgen")} <j@x.de>, plain@x.de`);
    expect(head).toContain("X-Note: näher");
    expect(head).not.toContain("Bad Name");
  });

  it("when a part is served apart, then its bytes are read through the reader, and the same payload gives the same bytes", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    const payload: MessagePart = {
      mimeType: "multipart/mixed",
      headers: [{ name: "Content-Type", value: "multipart/mixed" }],
      parts: [
        leaf("text/plain", "see attached"),
        { mimeType: "image/png", headers: [], body: { size: png.length, attachmentId: "att-1" } },
      ],
    };
    const asked: string[] = [];
    const reader = async (id: string): Promise<Buffer> => {
      asked.push(id);
      return png;
    };

    const first = await rebuildMessage("m1", payload, reader);
    const second = await rebuildMessage("m1", payload, reader);

    expect(asked).toEqual(["att-1", "att-1"]);
    expect(first.equals(second)).toBe(true);
    expect(first.toString("latin1")).toContain(
      `Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n${png.toString("base64")}\r\n`,
    );
  });
});
