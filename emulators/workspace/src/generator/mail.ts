/**
 * Generated mail: builds one message's MIME (letters, newsletters with inline images, invitations,
 * attachments) and streams a mailbox's messages in date order, threads and labels included.
 */
import {
  DOCUMENT_TITLES,
  calendarInvite,
  contentLanguage,
  csvOfSize,
  jpeg,
  letter,
  pdf,
  png,
  sentences,
  SUBJECTS,
  textOfSize,
  type ContentLanguage,
} from "./content";
import {
  extendedParam,
  formatAddress,
  formatDate,
  quoteParam,
  encodeWords,
  writeMessage,
  type MimeLeaf,
  type MimePart,
} from "./mime";
import { Random } from "./random";
import type { Blob, Correspondent, OrganisationPlan, PlannedMessage, PlannedUser } from "./types";

export const DAY_MS = 86_400_000;

/** Everything a message says; `buildMessage` turns it into RFC 822 bytes. */
export interface MessageSpec {
  from: Correspondent;
  to: Correspondent[];
  cc: Correspondent[];
  subject: string;
  date: number;
  messageId: string;
  references: string[];
  textLines: string[];
  html: boolean;
  inlineImages: Blob[];
  attachments: Blob[];
  /** Body encoding for non-ASCII text. */
  textEncoding: "quoted-printable" | "base64";
  extraHeaders: Array<[string, string]>;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function textLeaf(contentType: string, text: string, encoding: MessageSpec["textEncoding"]): MimeLeaf {
  const body = Buffer.from(text.replace(/\r?\n/g, "\r\n"), "utf8");
  const ascii = /^[\t\r\n\x20-\x7e]*$/.test(text) && !text.split("\n").some((line) => line.length > 900);
  return {
    kind: "leaf",
    contentType: `${contentType}; charset="UTF-8"`,
    encoding: ascii ? "7bit" : encoding,
    body,
  };
}

function attachmentLeaf(blob: Blob, index: number, rfc2231: boolean): MimeLeaf {
  const disposition = rfc2231
    ? `attachment; filename*=${extendedParam(blob.name)}`
    : `attachment; filename=${quoteParam(blob.name)}`;
  return {
    kind: "leaf",
    contentType: `${blob.mimeType}; name=${quoteParam(blob.name)}`,
    encoding: "base64",
    body: blob.content,
    headers: [
      ["Content-Disposition", disposition],
      ["X-Attachment-Id", `f_${index}`],
    ],
  };
}

/** The MIME tree: text, or alternative text+HTML, in related with inline images, in mixed with attachments. */
export function buildMessage(spec: MessageSpec, random: Random): Buffer {
  const text = spec.textLines.join("\n");
  const boundary = (): string => `000000000000${random.hex(16)}=_part`;
  const cids = spec.inlineImages.map((_, index) => `ii_${random.hex(10)}${index}`);
  let body: MimePart = textLeaf("text/plain", text, spec.textEncoding);
  if (spec.html) {
    const paragraphs = spec.textLines
      .map((line) => (line ? `<p>${escapeHtml(line)}</p>` : "<br>"))
      .join("\r\n");
    const images = cids.map(
      (cid, index) => `<img src="cid:${cid}" alt="${escapeHtml(spec.inlineImages[index]?.name ?? "")}">`,
    );
    const html = `<html><head><meta charset="utf-8"></head><body><div dir="ltr">\r\n${paragraphs}\r\n${images.join("\r\n")}\r\n</div></body></html>`;
    body = {
      kind: "multipart",
      subtype: "alternative",
      boundary: boundary(),
      parts: [body, textLeaf("text/html", html, spec.textEncoding)],
    };
    if (spec.inlineImages.length > 0) {
      body = {
        kind: "multipart",
        subtype: "related",
        boundary: boundary(),
        parts: [
          body,
          ...spec.inlineImages.map((image, index): MimeLeaf => ({
            kind: "leaf",
            contentType: `${image.mimeType}; name=${quoteParam(image.name)}`,
            encoding: "base64",
            body: image.content,
            headers: [
              ["Content-Disposition", `inline; filename=${quoteParam(image.name)}`],
              ["Content-ID", `<${cids[index]}>`],
            ],
          })),
        ],
      };
    }
  }
  if (spec.attachments.length > 0) {
    const rfc2231 = random.chance(0.3);
    body = {
      kind: "multipart",
      subtype: "mixed",
      boundary: boundary(),
      parts: [body, ...spec.attachments.map((blob, index) => attachmentLeaf(blob, index, rfc2231))],
    };
  }
  const list = (people: Correspondent[]): string =>
    people.map((p) => formatAddress(p.name, p.email)).join(", ");
  const headers: Array<[string, string]> = [
    ["Date", formatDate(spec.date)],
    ["From", formatAddress(spec.from.name, spec.from.email)],
    ["To", list(spec.to)],
  ];
  if (spec.cc.length > 0) headers.push(["Cc", list(spec.cc)]);
  headers.push(["Subject", encodeWords(spec.subject)], ["Message-ID", spec.messageId]);
  if (spec.references.length > 0) {
    headers.push(["In-Reply-To", spec.references[spec.references.length - 1] as string]);
    headers.push(["References", spec.references.join(" ")]);
  }
  headers.push(...spec.extraHeaders);
  return writeMessage(headers, body);
}

/** Attachment and inline-image sizes per profile: demo stays small, bench averages about 50 KB a message. */
const SIZES = {
  demo: {
    attachmentChance: 0.22,
    min: 300,
    max: 250_000,
    largeChance: 0,
    inlineChance: 0.12,
    sharedChance: 0.06,
  },
  bench: {
    attachmentChance: 0.4,
    min: 500,
    max: 400_000,
    largeChance: 0.004,
    inlineChance: 0.15,
    sharedChance: 0.05,
  },
} as const;

/** A file of `kind` and about `size` bytes, named in `language`. */
export function makeBlob(
  random: Random,
  kind: "pdf" | "png" | "jpeg" | "csv" | "txt",
  size: number,
  language: ContentLanguage,
  date: number,
): Blob {
  const month = new Date(date).toISOString().slice(0, 7);
  const title = `${random.pick(DOCUMENT_TITLES[language])} ${month}`;
  switch (kind) {
    case "pdf":
      return {
        name: `${title}.pdf`,
        mimeType: "application/pdf",
        content: pdf(random, title, sentences(random, language, 12), size),
      };
    case "png":
      return {
        name: `Screenshot ${month}-${random.int(10, 28)}.png`,
        mimeType: "image/png",
        content: png(random, size),
      };
    case "jpeg":
      return {
        name: `IMG_${random.int(1000, 9999)}.jpg`,
        mimeType: "image/jpeg",
        content: jpeg(random, size),
      };
    case "csv":
      return { name: `${title}.csv`, mimeType: "text/csv", content: Buffer.from(csvOfSize(random, size)) };
    case "txt":
      return {
        name: `${title}.txt`,
        mimeType: "text/plain",
        content: Buffer.from(textOfSize(random, language, size)),
      };
  }
}

function attachmentKind(random: Random): "pdf" | "png" | "jpeg" | "csv" | "txt" {
  return random.weighted([
    ["pdf", 4],
    ["jpeg", 3],
    ["png", 2],
    ["csv", 1],
    ["txt", 1],
  ] as const);
}

/** A time on a working day between `from` and `to` (Swiss office hours, some evenings and weekends). */
export function workTime(random: Random, from: number, to: number): number {
  const day = Math.floor((from + random.next() * (to - from)) / DAY_MS) * DAY_MS;
  const weekday = new Date(day).getUTCDay();
  const shifted =
    (weekday === 0 || weekday === 6) && random.chance(0.8) ? day + (weekday === 6 ? 2 : 1) * DAY_MS : day;
  const hour = random.chance(0.9) ? random.int(7, 17) : random.int(18, 22);
  const time = shifted + (hour - 1) * 3_600_000 + random.int(0, 3_599) * 1000;
  return Math.min(Math.max(time, from), to - 1000);
}

function messageId(random: Random, from: Correspondent): string {
  if (from.internal) return `<CA${random.hex(24).toUpperCase()}@mail.gmail.com>`;
  return `<${random.hex(20)}.${random.int(100000, 999999)}@${from.email.split("@")[1] ?? "example.test"}>`;
}

const EXTERNAL: ReadonlyArray<Correspondent & { newsletter?: boolean }> = [
  { name: "Hans Meier", email: "hans.meier@treuhand-meier.example", language: "de", internal: false },
  { name: "Sophie Dubois", email: "s.dubois@fiduciaire-leman.example", language: "fr", internal: false },
  { name: "Marco Rossi", email: "marco.rossi@studio-rossi.example", language: "it", internal: false },
  { name: "Flurina Bezzola", email: "flurina@hotel-engiadina.example", language: "rm", internal: false },
  { name: "Anna O'Brien", email: "anna.obrien@partner-cloud.example", language: "en", internal: false },
  { name: "Zürcher Kantonalbank (Test)", email: "service@bank-zh.example", language: "de", internal: false },
  { name: "SBB CFF FFS", email: "newsletter@sbb.example", language: "de", internal: false, newsletter: true },
  {
    name: "Alpvault Team",
    email: "news@alpvault.example",
    language: "en",
    internal: false,
    newsletter: true,
  },
  {
    name: "Coop Pronto",
    email: "info@coop-pronto.example",
    language: "de",
    internal: false,
    newsletter: true,
  },
  {
    name: "Migros Bank",
    email: "no-reply@migrosbank.example",
    language: "fr",
    internal: false,
    newsletter: true,
  },
];

export function correspondentOf(user: PlannedUser): Correspondent {
  return {
    name: `${user.givenName} ${user.familyName}`,
    email: user.email,
    language: user.language,
    internal: true,
  };
}

interface Skeleton {
  order: number;
  date: number;
  seed: number;
  from: Correspondent;
  to: Correspondent[];
  cc: Correspondent[];
  subject: string;
  language: ContentLanguage;
  messageId: string;
  references: string[];
  outgoing: boolean;
  newsletter: boolean;
  first: boolean;
}

function signatureOf(person: Correspondent, title: string | undefined, domain: string): string[] {
  return [
    "",
    "-- ",
    person.name,
    ...(title ? [title] : []),
    person.internal ? `Alpvault Demo AG · ${domain}` : "",
  ];
}

/** The bytes and labels of one skeleton message. */
function renderMessage(
  plan: OrganisationPlan,
  owner: PlannedUser,
  skeleton: Skeleton,
  scale: (typeof SIZES)[keyof typeof SIZES],
  large: boolean,
): PlannedMessage {
  const random = new Random(skeleton.seed);
  const end = Date.parse(plan.referenceDate);
  const inlineImages: Blob[] = [];
  const attachments: Blob[] = [];
  let lines: string[];
  if (skeleton.newsletter) {
    lines = [
      skeleton.subject,
      "",
      ...sentences(random, skeleton.language, random.int(8, 40)).map((s) => `${s}\n`),
    ];
    inlineImages.push({
      name: "header.png",
      mimeType: "image/png",
      content: png(random, random.logUniform(2_000, 60_000)),
    });
    if (random.chance(0.5))
      inlineImages.push({
        name: "teaser.jpg",
        mimeType: "image/jpeg",
        content: jpeg(random, random.logUniform(5_000, 80_000)),
      });
  } else {
    const recipient = skeleton.to[0]?.name.split(" ")[0] ?? "";
    const title = skeleton.from.internal
      ? plan.users.find((u) => u.email === skeleton.from.email)?.title
      : undefined;
    lines = letter(random, skeleton.language, recipient, signatureOf(skeleton.from, title, plan.domain));
    if (!skeleton.first) lines.push("", `> ${sentences(random, skeleton.language, 1).join("")}`);
    if (random.chance(scale.inlineChance)) {
      const logo = plan.sharedBlobs.find((blob) => blob.mimeType === "image/png");
      if (logo && skeleton.from.internal) inlineImages.push(logo);
      else
        inlineImages.push({
          name: "image001.png",
          mimeType: "image/png",
          content: png(random, random.logUniform(800, 30_000)),
        });
    }
    const firstOrLucky = skeleton.first || random.chance(0.2);
    if (firstOrLucky && random.chance(scale.attachmentChance)) {
      const count = random.weighted([
        [1, 6],
        [2, 2],
        [3, 1],
      ] as const);
      for (let index = 0; index < count; index += 1) {
        attachments.push(
          makeBlob(
            random,
            attachmentKind(random),
            random.logUniform(scale.min, scale.max),
            skeleton.language,
            skeleton.date,
          ),
        );
      }
    }
    if (firstOrLucky && random.chance(scale.sharedChance)) attachments.push(random.pick(plan.sharedBlobs));
    if (random.chance(scale.largeChance) || large) {
      const size = large ? random.int(900_000, 1_600_000) : random.int(1_000_000, 3_000_000);
      attachments.push(
        makeBlob(random, random.pick(["pdf", "jpeg"] as const), size, skeleton.language, skeleton.date),
      );
    }
    if (skeleton.first && random.chance(0.04)) {
      const start = end - random.int(1, 60) * DAY_MS;
      attachments.push({
        name: "invite.ics",
        mimeType: "text/calendar",
        content: Buffer.from(
          calendarInvite(`${random.hex(16)}@alpvault`, skeleton.subject, skeleton.from.email, start),
        ),
      });
    }
  }
  const extraHeaders: Array<[string, string]> = [];
  if (skeleton.newsletter) {
    extraHeaders.push(["List-Unsubscribe", `<mailto:unsubscribe@${skeleton.from.email.split("@")[1]}>`]);
    extraHeaders.push(["Precedence", "bulk"]);
  } else if (skeleton.from.internal) {
    extraHeaders.push(["X-Mailer", "Alpvault demo mail"]);
  }
  const raw = buildMessage(
    {
      from: skeleton.from,
      to: skeleton.to,
      cc: skeleton.cc,
      subject: skeleton.subject,
      date: skeleton.date,
      messageId: skeleton.messageId,
      references: skeleton.references,
      textLines: lines,
      html: skeleton.newsletter || random.chance(0.7),
      inlineImages,
      attachments,
      textEncoding: random.chance(0.75) ? "quoted-printable" : "base64",
      extraHeaders,
    },
    random,
  );
  return {
    raw,
    messageId: skeleton.messageId,
    references: skeleton.references,
    ...labelsFor(random, owner, skeleton, end),
  };
}

function labelsFor(
  random: Random,
  owner: PlannedUser,
  skeleton: Skeleton,
  end: number,
): Pick<PlannedMessage, "labelIds" | "userLabels" | "internalDate"> {
  const labelIds: string[] = [];
  const userLabels: string[] = [];
  const age = end - skeleton.date;
  const nested = owner.labels.filter(
    (label) => label.includes("/") || !owner.labels.some((l) => l.startsWith(`${label}/`)),
  );
  if (skeleton.outgoing) {
    labelIds.push("SENT");
  } else if (!skeleton.newsletter && random.chance(0.01)) {
    labelIds.push("SPAM");
  } else {
    if (age < 60 * DAY_MS || random.chance(0.5)) labelIds.push("INBOX");
    if (random.chance(age < 14 * DAY_MS ? 0.6 : 0.03)) labelIds.push("UNREAD");
    if (random.chance(0.04)) labelIds.push("STARRED");
    if (!skeleton.newsletter && random.chance(0.25)) labelIds.push("IMPORTANT");
  }
  if (!labelIds.includes("SPAM") && random.chance(0.015)) labelIds.push("TRASH");
  if (!labelIds.includes("SPAM") && nested.length > 0 && random.chance(skeleton.newsletter ? 0.5 : 0.25)) {
    userLabels.push(random.pick(nested));
  }
  const internalDate = skeleton.outgoing ? skeleton.date : skeleton.date + random.int(1, 90) * 1000;
  return { labelIds, userLabels, internalDate };
}

/**
 * The messages of one mailbox, oldest first: its own threads (colleagues, external contacts, newsletters)
 * merged with the organisation's broadcasts. Built one message at a time, so large mailboxes stream.
 */
export function* planMailbox(plan: OrganisationPlan, email: string): Generator<PlannedMessage> {
  const owner = plan.users.find((user) => user.email === email);
  if (!owner) throw new Error(`No planned user ${email}`);
  // A user without Gmail has no mailbox.
  if (owner.gmailEnabled === false) return;
  const random = Random.of("mailbox", plan.seed, email);
  const end = Date.parse(plan.referenceDate);
  const start = end - 730 * DAY_MS;
  const self = correspondentOf(owner);
  const colleagues = plan.users
    .filter((user) => user.email !== email && !user.suspended && user.gmailEnabled !== false)
    .map(correspondentOf);
  const count = plan.mail.ownMessages[email] ?? 0;
  const scale = SIZES[plan.mail.attachmentScale];
  const skeletons: Skeleton[] = [];
  let order = 0;
  while (skeletons.length < count) {
    const external = random.pick(EXTERNAL);
    const newsletter = external.newsletter === true && random.chance(0.5);
    const other: Correspondent =
      newsletter || colleagues.length === 0 || random.chance(0.45) ? external : random.pick(colleagues);
    const language = newsletter ? external.language : contentLanguage(random, owner.language);
    const length = newsletter
      ? 1
      : Math.min(
          count - skeletons.length,
          random.weighted([
            [1, 6],
            [2, 2],
            [3, 1],
            [4, 1],
            [6, 0.5],
          ] as const),
        );
    const subject = random.pick(SUBJECTS[language]);
    const cc =
      !newsletter && colleagues.length > 1 && random.chance(0.15)
        ? [random.pick(colleagues)].filter((c) => c.email !== other.email)
        : [];
    let outgoing = !newsletter && random.chance(0.35);
    let date = workTime(random, start, end);
    const references: string[] = [];
    for (let position = 0; position < length && date < end; position += 1) {
      const from = outgoing ? self : other;
      const to = outgoing ? [other] : [self];
      const id = messageId(random, from);
      skeletons.push({
        order: order++,
        date,
        seed: random.uint32(),
        from,
        to,
        cc,
        subject: position === 0 ? subject : `${language === "de" ? "AW" : "Re"}: ${subject}`,
        language,
        messageId: id,
        references: [...references],
        outgoing,
        newsletter,
        first: position === 0,
      });
      references.push(id);
      outgoing = !outgoing;
      date += random.logUniform(5 * 60_000, 4 * DAY_MS);
    }
  }
  skeletons.sort((a, b) => a.date - b.date || a.order - b.order);
  const largeAt =
    plan.profile === "demo" && plan.users.indexOf(owner) < 2 ? Math.floor(skeletons.length / 2) : -1;
  const broadcasts = plan.broadcasts;
  let next = 0;
  for (let index = 0; index < skeletons.length; index += 1) {
    const skeleton = skeletons[index] as Skeleton;
    while (next < broadcasts.length && (broadcasts[next]?.internalDate ?? 0) <= skeleton.date) {
      yield broadcastCopy(plan, owner, next);
      next += 1;
    }
    yield renderMessage(plan, owner, skeleton, scale, index === largeAt && !skeleton.newsletter);
  }
  for (; next < broadcasts.length; next += 1) yield broadcastCopy(plan, owner, next);
  if (plan.mail.largeMessage?.email === email) yield largeMessage(plan, owner, plan.mail.largeMessage.bytes);
}

/**
 * One message of about `bytes`: a letter from an architect with a large PDF attached, two days before the
 * reference date. Larger than Gmail takes in a JSON request, so it can only be imported by upload.
 */
function largeMessage(plan: OrganisationPlan, owner: PlannedUser, bytes: number): PlannedMessage {
  const random = Random.of("large-message", plan.seed, owner.email);
  const from = EXTERNAL.find((person) => person.language === "it") ?? (EXTERNAL[0] as Correspondent);
  const date = Date.parse(plan.referenceDate) - 2 * DAY_MS + 9 * 3_600_000;
  const id = messageId(random, from);
  const title = "Planimetrie Ufficio Lugano";
  // base64 makes the attachment a third larger on the wire; the text and headers add a few KB.
  const attachment = {
    name: `${title}.pdf`,
    mimeType: "application/pdf",
    content: pdf(
      random,
      title,
      sentences(random, "it", 12),
      Math.max(1_000, Math.floor((bytes * 3) / 4) - 4_000),
    ),
  };
  const raw = buildMessage(
    {
      from,
      to: [correspondentOf(owner)],
      cc: [],
      subject: `${title} – versione definitiva`,
      date,
      messageId: id,
      references: [],
      textLines: letter(random, "it", owner.givenName, signatureOf(from, undefined, plan.domain)),
      html: true,
      inlineImages: [],
      attachments: [attachment],
      textEncoding: "quoted-printable",
      extraHeaders: [],
    },
    random,
  );
  return {
    raw,
    messageId: id,
    references: [],
    labelIds: ["INBOX", "UNREAD", "IMPORTANT"],
    userLabels: [],
    internalDate: date + 42_000,
  };
}

/** A broadcast as it sits in one mailbox: same bytes; SENT for its sender, INBOX for everyone else. */
function broadcastCopy(plan: OrganisationPlan, owner: PlannedUser, index: number): PlannedMessage {
  const broadcast = plan.broadcasts[index];
  if (!broadcast) throw new Error("No such broadcast");
  const sender = broadcast.senderEmail === owner.email;
  const random = Random.of("broadcast-labels", plan.seed, owner.email, index);
  const recent = Date.parse(plan.referenceDate) - broadcast.internalDate < 14 * DAY_MS;
  return {
    raw: broadcast.raw,
    messageId: broadcast.messageId,
    references: [],
    labelIds: sender ? ["SENT"] : ["INBOX", ...(recent || random.chance(0.05) ? ["UNREAD"] : [])],
    userLabels: [],
    internalDate: broadcast.internalDate,
  };
}

/** Announcements from the administration to all staff, each with a shared file attached. */
export function planBroadcasts(
  seed: number,
  domain: string,
  users: PlannedUser[],
  sharedBlobs: Blob[],
  count: number,
  end: number,
): Array<PlannedMessage & { senderEmail: string }> {
  const random = Random.of("broadcasts", seed);
  const senders = users
    .filter((user) => !user.suspended && user.gmailEnabled !== false)
    .slice(0, 3)
    .map(correspondentOf);
  const everyone: Correspondent = {
    name: "Alle Mitarbeitenden",
    email: `alle@${domain}`,
    language: "de",
    internal: true,
  };
  const out: Array<PlannedMessage & { senderEmail: string }> = [];
  const subjects = [
    "Neues Spesenreglement ab 1. Januar",
    "Nouveau règlement télétravail",
    "Weihnachtsessen – Anmeldung bis Freitag",
    "Informaziun: Serrada dal biro",
    "IT: Wartungsfenster am Samstag",
    "Rinnovo dei contratti di telefonia",
  ];
  for (let index = 0; index < count; index += 1) {
    const from = random.pick(senders);
    const date = workTime(
      random,
      end - 700 * DAY_MS + (index * 690 * DAY_MS) / Math.max(count, 1),
      end - DAY_MS,
    );
    const language = contentLanguage(random, "de");
    const messageSeed = random.uint32();
    const messageRandom = new Random(messageSeed);
    const id = messageId(messageRandom, from);
    const raw = buildMessage(
      {
        from,
        to: [everyone],
        cc: [],
        subject: subjects[index % subjects.length] as string,
        date,
        messageId: id,
        references: [],
        textLines: letter(messageRandom, language, "zusammen", signatureOf(from, undefined, domain), 3),
        html: true,
        inlineImages: sharedBlobs.filter((blob) => blob.mimeType === "image/png").slice(0, 1),
        attachments:
          index % 2 === 0 && sharedBlobs.length > 0 ? [sharedBlobs[index % sharedBlobs.length] as Blob] : [],
        textEncoding: "quoted-printable",
        extraHeaders: [["X-Mailer", "Alpvault demo mail"]],
      },
      messageRandom,
    );
    out.push({
      raw,
      messageId: id,
      references: [],
      labelIds: [],
      userLabels: [],
      internalDate: date,
      senderEmail: from.email,
    });
  }
  return out.sort((a, b) => a.internalDate - b.internalDate);
}
