/**
 * The JSON API's multipart upload body (`uploadType=multipart`, `multipart/related`): a JSON metadata part,
 * then the media part.
 */
import { invalid, parseJsonObject } from "./http";

/** Splits a multipart/related body into its parts. */
export function parseMultipart(
  body: Buffer,
  contentType: string,
): { headers: Record<string, string>; data: Buffer }[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) throw invalid("Missing boundary in the multipart/related content type.");
  const delimiter = Buffer.from(`--${marker}`);
  const parts: { headers: Record<string, string>; data: Buffer }[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw invalid("Malformed multipart body.");
  for (;;) {
    at += delimiter.length;
    if (body[at] === 0x2d && body[at + 1] === 0x2d) break; // "--": the closing delimiter
    if (body[at] === 0x0d) at += 1;
    if (body[at] === 0x0a) at += 1;
    const next = body.indexOf(delimiter, at);
    if (next < 0) throw invalid("Malformed multipart body.");
    let part = body.subarray(at, next);
    if (part[part.length - 2] === 0x0d && part[part.length - 1] === 0x0a) part = part.subarray(0, -2);
    else if (part[part.length - 1] === 0x0a) part = part.subarray(0, -1);
    let split = part.indexOf("\r\n\r\n");
    let gap = 4;
    if (split < 0) {
      split = part.indexOf("\n\n");
      gap = 2;
    }
    const headers: Record<string, string> = {};
    if (split >= 0) {
      for (const line of part.subarray(0, split).toString("utf8").split(/\r?\n/)) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
    }
    parts.push({ headers, data: split >= 0 ? part.subarray(split + gap) : part });
    at = next;
  }
  return parts;
}

/** The metadata part and the media part of a multipart upload. */
export function decodeMultipart(
  body: Buffer,
  contentType: string,
): { metadata: Record<string, unknown>; contentType?: string; data: Buffer } {
  const parts = parseMultipart(body, contentType);
  if (parts.length !== 2) throw invalid("A multipart upload has exactly two parts: metadata and media.");
  const [metadataPart, mediaPart] = parts as [(typeof parts)[number], (typeof parts)[number]];
  let data = mediaPart.data;
  if ((mediaPart.headers["content-transfer-encoding"] ?? "").toLowerCase() === "base64") {
    data = Buffer.from(data.toString("ascii"), "base64");
  }
  return {
    metadata: parseJsonObject(metadataPart.data),
    contentType: mediaPart.headers["content-type"],
    data,
  };
}
