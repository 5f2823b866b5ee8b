import { googleError, startHarness, type Harness } from "../testing/harness";
import {
  BENCH_DOMAIN,
  DEMO_ORGANISATION_SUMMARY,
  HUGE_FILE_BYTES,
  generateOrganisation,
  planOrganisation,
  withAwkwardDrive,
} from "./generate";

const OPTIONS = { profile: "bench", users: 4, messagesPerUser: 4, filesPerUser: 6, seed: 7 } as const;
/**
 * The generated organisation's video is made this large (`hugeFileBytes`) rather than the plan's 3 GiB:
 * its checksums are computed by reading it once, and what is checked here (listed with its size, kept as
 * a description) is the same at any size. Files past 2 GiB are drive-huge-files.test.ts's.
 */
const VIDEO_BYTES = 3 * 1024 * 1024 + 17;
const ADMIN = `admin@${BENCH_DOMAIN}`;
const GOOGLE = "application/vnd.google-apps.";

test("when the demo and bench plans are made without awkwardDrive, then they hold none of the awkward cases", () => {
  for (const plan of [planOrganisation({ profile: "demo" }), planOrganisation(OPTIONS)]) {
    const types = new Set(plan.driveItems.map((item) => item.mimeType));
    for (const type of ["form", "site", "map", "jam", "drawing", "script", "shortcut"])
      expect(types.has(`${GOOGLE}${type}`)).toBe(false);
    expect(plan.driveItems.some((item) => item.generated || item.restrictions)).toBe(false);
    expect(plan.externalPeople).toBeUndefined();
    expect(
      plan.sharedDrives.every((drive) =>
        drive.members.some(
          (member) => member.emailAddress === plan.users.find((user) => user.isAdmin)?.email,
        ),
      ),
    ).toBe(true);
  }
  expect(planOrganisation({ profile: "demo" }).driveItems).toHaveLength(DEMO_ORGANISATION_SUMMARY.driveItems);
});

describe("an organisation generated with awkwardDrive", () => {
  let harness: Harness;
  const plan = withAwkwardDrive(planOrganisation(OPTIONS));
  const item = (key: string) => plan.driveItems.find((candidate) => candidate.key === key);
  const member = item("awkward:form")?.ownerEmail as string;

  beforeAll(async () => {
    // Not a timing test: answers come without the latency model.
    harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false }, empty: true });
    generateOrganisation(harness.emulator, { ...OPTIONS, awkwardDrive: true, hugeFileBytes: VIDEO_BYTES });
    // The video's checksums are computed by reading it once.
    await harness.emulator.drive.settled();
  });
  afterAll(() => harness.stop());

  test("when the super admin looks for the shared drive without them, then only useDomainAdminAccess finds it, with two members", async () => {
    const admin = harness.drive(ADMIN);
    expect((await admin.drives.list({})).data.drives?.map((drive) => drive.name)).not.toContain(
      "Rechtsdienst",
    );
    const all = await admin.drives.list({ useDomainAdminAccess: true, pageSize: 100 });
    const legal = all.data.drives?.find((drive) => drive.name === "Rechtsdienst");
    expect(legal).toBeDefined();
    const members = await admin.permissions.list({
      fileId: legal?.id as string,
      useDomainAdminAccess: true,
      supportsAllDrives: true,
      fields: "permissions(emailAddress,role)",
    });
    expect(members.data.permissions?.map((permission) => permission.role)).toEqual(["organizer", "reader"]);
    expect(members.data.permissions?.map((permission) => permission.emailAddress)).not.toContain(ADMIN);
    const files = await googleError(
      admin.files.list({
        corpora: "drive",
        driveId: legal?.id as string,
        includeItemsFromAllDrives: true,
        supportsAllDrives: true,
      }),
    );
    expect(files.status).toBe(404);
  });

  test("when the member's special folder is listed, then every item type is there as Drive shows it", async () => {
    const drive = harness.drive(member);
    const { data } = await drive.files.list({
      q: `'${member}' in owners`,
      pageSize: 1000,
      fields: "files(id,name,mimeType,size,exportLinks,shortcutDetails)",
    });
    const byName = new Map((data.files ?? []).map((file) => [file.name, file]));
    for (const [name, type] of [
      ["Umfrage Teamanlass", "form"],
      ["Intranet Alpvault", "site"],
      ["Wanderrouten Teamausflug", "map"],
      ["Brainstorming Q3", "jam"],
    ]) {
      expect(byName.get(name)?.mimeType).toBe(`${GOOGLE}${type}`);
      expect(byName.get(name)?.exportLinks).toBeUndefined();
    }
    expect(Object.keys(byName.get("Skizze Serverraum")?.exportLinks ?? {})).toContain("image/png");
    expect(Object.keys(byName.get("Spesen-Automatisierung")?.exportLinks ?? {})).toEqual([
      `${GOOGLE}script+json`,
    ]);
    expect(byName.get("Firmenvideo 2026 (Rohschnitt).mp4")?.size).toBe(String(VIDEO_BYTES));
    const shortcut = (data.files ?? []).find((file) => file.mimeType === `${GOOGLE}shortcut`);
    const target = (data.files ?? []).find(
      (file) => file.name === "Reiseplan Messe Basel.pdf" && file.mimeType === "application/pdf",
    );
    expect(shortcut?.shortcutDetails).toEqual({ targetId: target?.id, targetMimeType: "application/pdf" });
  });

  test("when the member looks at what is shared with them, then the outsider's file and the restricted file are there", async () => {
    const drive = harness.drive(member);
    const { data } = await drive.files.list({
      q: "sharedWithMe = true",
      fields: "files(id,name,owners(emailAddress),capabilities(canDownload))",
    });
    const external = data.files?.find((file) => file.name === "Offerte Bergwerk Partner.pdf");
    expect(external?.owners).toEqual([{ emailAddress: "lena.meier@bergwerk-partner.test" }]);
    const restricted = data.files?.find((file) => file.name === "Lohnbänder 2026.pdf");
    expect(restricted?.capabilities?.canDownload).toBe(false);
    const refused = await googleError(drive.files.get({ fileId: restricted?.id as string, alt: "media" }));
    expect(refused.reason).toBe("cannotDownloadFile");
  });

  test("when the state is snapshotted, then the huge file is its generator description, not its bytes", () => {
    // The plan's video is 3 GiB unless `hugeFileBytes` says otherwise.
    expect(item("awkward:huge")?.generated?.size).toBe(HUGE_FILE_BYTES);
    const snapshot = harness.emulator.drive.snapshot();
    const huge = snapshot.files?.find((file) => file.name === "Firmenvideo 2026 (Rohschnitt).mp4");
    expect(huge?.revisions).toEqual([
      expect.objectContaining({
        content: "",
        size: VIDEO_BYTES,
        stream: { kind: "generated", seed: item("awkward:huge")?.generated?.seed, size: VIDEO_BYTES },
        md5: expect.stringMatching(/^[0-9a-f]{32}$/),
      }),
    ]);
    expect(snapshot.externalPeople?.map((person) => person.email)).toEqual([
      "lena.meier@bergwerk-partner.test",
    ]);
  });
});
