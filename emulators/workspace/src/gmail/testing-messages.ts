/**
 * RFC 822 messages for the Gmail tests and the benchmark: multipart/alternative text and HTML, optional
 * attachments, threading headers.
 */
export interface TestMessageInput {
  from?: string;
  to?: string;
  subject: string;
  date?: Date;
  messageId?: string;
  inReplyTo?: string;
  text?: string;
  html?: string;
  attachments?: { filename: string; contentType: string; data: Buffer }[];
}

function wrap(base64: string): string {
  return base64.replace(/.{1,76}/g, "$&\r\n");
}

export function testMessage(input: TestMessageInput): Buffer {
  const text = input.text ?? `Hello,\r\n\r\n${input.subject}\r\n`;
  const html = input.html ?? `<p>${text.replace(/\r\n/g, "<br>")}</p>`;
  const headers = [
    `From: ${input.from ?? "Alice Example <alice@example.org>"}`,
    `To: ${input.to ?? "user@example-test.test"}`,
    `Subject: ${input.subject}`,
    `Date: ${(input.date ?? new Date("2026-01-15T10:00:00Z")).toUTCString().replace("GMT", "+0000")}`,
    ...(input.messageId ? [`Message-ID: <${input.messageId}>`] : []),
    ...(input.inReplyTo ? [`In-Reply-To: <${input.inReplyTo}>`, `References: <${input.inReplyTo}>`] : []),
    "MIME-Version: 1.0",
  ];
  const alternative = [
    "--alt",
    'Content-Type: text/plain; charset="UTF-8"',
    "Content-Transfer-Encoding: quoted-printable",
    "",
    text,
    "--alt",
    'Content-Type: text/html; charset="UTF-8"',
    "",
    html,
    "--alt--",
    "",
  ].join("\r\n");
  if (!input.attachments?.length) {
    return Buffer.from(
      [...headers, 'Content-Type: multipart/alternative; boundary="alt"', "", alternative].join("\r\n"),
    );
  }
  const parts = [
    ...headers,
    'Content-Type: multipart/mixed; boundary="mixed"',
    "",
    "--mixed",
    'Content-Type: multipart/alternative; boundary="alt"',
    "",
    alternative,
  ];
  for (const attachment of input.attachments) {
    parts.push(
      "--mixed",
      `Content-Type: ${attachment.contentType}; name="${attachment.filename}"`,
      `Content-Disposition: attachment; filename="${attachment.filename}"`,
      "Content-Transfer-Encoding: base64",
      "",
      wrap(attachment.data.toString("base64")),
    );
  }
  parts.push("--mixed--", "");
  return Buffer.from(parts.join("\r\n"));
}
