/**
 * Generated mail: streams a mailbox's messages in date order, threads and labels included (the MIME is
 * built by `mail-build.ts`, the correspondents come from `mail-people.ts`).
 */
import { calendarInvite, contentLanguage, jpeg, letter, pdf, png, sentences, SUBJECTS } from "./content";
import { Random } from "./random";
import type { Blob, Correspondent, OrganisationPlan, PlannedMessage, PlannedUser } from "./types";
import { DAY_MS, buildMessage, SIZES, makeBlob, attachmentKind } from "./mail-build";
import { workTime, messageId, EXTERNAL, correspondentOf, type Skeleton, signatureOf } from "./mail-people";

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
