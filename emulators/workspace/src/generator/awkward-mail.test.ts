import { googleError, startHarness, type Harness } from "../testing/harness";
import {
  BENCH_DOMAIN,
  DEMO_ORGANISATION_SUMMARY,
  DRIVE_ONLY_USER,
  LARGE_MESSAGE_BYTES,
  generateOrganisation,
  planMailbox,
  planMailboxes,
  planOrganisation,
} from "./generate";

const OPTIONS = { profile: "bench", users: 3, messagesPerUser: 4, filesPerUser: 4, seed: 11 } as const;
const DRIVE_ONLY = `${DRIVE_ONLY_USER.localPart}@${BENCH_DOMAIN}`;

test("when the demo and bench plans are made without awkwardMail, then everyone has Gmail and no message is large", () => {
  for (const plan of [planOrganisation({ profile: "demo" }), planOrganisation(OPTIONS)]) {
    expect(plan.users.every((user) => user.gmailEnabled !== false)).toBe(true);
    expect(plan.mail.largeMessage).toBeUndefined();
  }
  const demo = planOrganisation({ profile: "demo" });
  expect(demo.users).toHaveLength(DEMO_ORGANISATION_SUMMARY.users);
  const sizes = [...planMailboxes(demo).values()].flat().map((message) => message.raw.length);
  expect(sizes.length).toBe(DEMO_ORGANISATION_SUMMARY.messages);
  expect(Math.max(...sizes)).toBeLessThan(5_000_000);
});

test("when awkwardMail is asked for, then the plan adds a Drive-only user with no mailbox and a large message, and leaves the others' mail as it was", () => {
  const plain = planOrganisation(OPTIONS);
  const plan = planOrganisation({ ...OPTIONS, awkwardMail: true });
  const driveOnly = plan.users.find((user) => user.email === DRIVE_ONLY);
  expect(driveOnly).toMatchObject({ gmailEnabled: false, messageCount: 0, isAdmin: false });
  expect([...planMailbox(plan, DRIVE_ONLY)]).toEqual([]);
  expect(plan.driveItems.some((item) => item.ownerEmail === DRIVE_ONLY)).toBe(true);
  expect(plan.mail.largeMessage).toEqual({ email: plan.users[1]?.email, bytes: LARGE_MESSAGE_BYTES });
  // The first user's mailbox is the same message for message.
  const first = plan.users[0]?.email as string;
  expect([...planMailbox(plan, first)].map((message) => message.messageId)).toEqual(
    [...planMailbox(plain, first)].map((message) => message.messageId),
  );
});

test("when the large message is planned, then it is about the size asked for, with a PDF attachment, the mailbox's newest", () => {
  const plan = planOrganisation({ ...OPTIONS, awkwardMail: true, largeMessageBytes: 3_000_000 });
  const owner = plan.users[1]?.email as string;
  const messages = [...planMailbox(plan, owner)];
  expect(messages).toHaveLength(plan.users[1]?.messageCount as number);
  const large = messages.at(-1);
  expect(large?.raw.length).toBeGreaterThan(2_700_000);
  expect(large?.raw.length).toBeLessThan(3_300_000);
  expect(large?.raw.toString("latin1")).toMatch(/Content-Type: application\/pdf/);
  expect(Math.max(...messages.slice(0, -1).map((message) => message.raw.length))).toBeLessThan(
    large?.raw.length ?? 0,
  );
});

describe("an organisation generated with awkwardMail", () => {
  let harness: Harness;
  beforeAll(async () => {
    // Not a timing test: answers come without the latency model.
    harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false }, empty: true });
    generateOrganisation(harness.emulator, { ...OPTIONS, awkwardMail: true });
    await harness.emulator.drive.settled();
  }, 60_000);
  afterAll(() => harness.stop());

  test("when the Drive-only user's mail is read, then Gmail answers failedPrecondition; their Drive has files", async () => {
    const failure = await googleError(harness.gmail(DRIVE_ONLY).users.messages.list({ userId: "me" }));
    expect(failure).toMatchObject({
      status: 400,
      reason: "failedPrecondition",
      message: "Mail service not enabled",
    });
    const { data } = await harness.drive(DRIVE_ONLY).files.list({ q: "'me' in owners" });
    expect(data.files?.length).toBeGreaterThan(0);
    expect(harness.emulator.directory.user(DRIVE_ONLY)?.gmailEnabled).toBe(false);
  });

  test("when the large message is read raw, then it is the 30 MB message with its attachment", async () => {
    const gmail = harness.gmail(planOrganisation(OPTIONS).users[1]?.email as string);
    const { data } = await gmail.users.messages.list({ userId: "me", q: "larger:20M" });
    expect(data.messages).toHaveLength(1);
    const { data: message } = await gmail.users.messages.get({
      userId: "me",
      id: data.messages?.[0]?.id as string,
      format: "full",
    });
    expect(message.sizeEstimate).toBeGreaterThan(LARGE_MESSAGE_BYTES * 0.9);
    expect(message.sizeEstimate).toBeLessThan(LARGE_MESSAGE_BYTES * 1.1);
    expect(message.payload?.parts?.some((part) => part.mimeType === "application/pdf")).toBe(true);
  });
});
