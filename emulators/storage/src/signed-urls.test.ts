/**
 * V4 signed URLs against the emulator: links made by the official client's `getSignedUrl` are served, and
 * a changed signature, another path, an unknown signer, an expired link and an unsigned read are refused
 * with Cloud Storage's XML errors.
 */
import { generateKeyPairSync } from "node:crypto";
import { Storage } from "@google-cloud/storage";
import { startStorageEmulator, type RunningStorageEmulator } from "./server";

const BUCKET = "alpvault-demo-signed";
const EMAIL = "signer@demo-alpvault.iam.gserviceaccount.com";
const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
const other = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

let emulator: RunningStorageEmulator;

function client(key = privateKey, email = EMAIL): Storage {
  return new Storage({
    projectId: "demo-alpvault",
    apiEndpoint: emulator.url,
    useAuthWithCustomEndpoint: false,
    credentials: { client_email: email, private_key: key },
  });
}

const NAME = "o/org/x/job/Ada's mail (2026).mbox";
const BODY = Buffer.from("From a@b Mon Jan  1 00:00:00 2026\nSubject: hi\n\nbody\n\n");

beforeAll(async () => {
  emulator = await startStorageEmulator({
    port: 0,
    autoCreateBuckets: true,
    signingAccounts: () => [{ clientEmail: EMAIL, key: privateKey }],
  });
  await client().bucket(BUCKET).file(NAME).save(BODY, { resumable: false });
});

afterAll(() => emulator?.stop());

async function signed(options: { key?: string; email?: string; expires?: number; name?: string } = {}) {
  const [url] = await client(options.key, options.email)
    .bucket(BUCKET)
    .file(options.name ?? NAME)
    .getSignedUrl({
      version: "v4",
      action: "read",
      expires: options.expires ?? Date.now() + 15 * 60_000,
      responseDisposition: 'attachment; filename="mail.mbox"',
    });
  return url;
}

test("when a link signed by a known account is read, then the object comes with the asked disposition", async () => {
  const response = await fetch(await signed());
  expect(response.status).toBe(200);
  expect(response.headers.get("content-disposition")).toBe('attachment; filename="mail.mbox"');
  expect(Buffer.from(await response.arrayBuffer())).toEqual(BODY);
  expect(emulator.emulator.stats.get("storage.objects.get:signed")).toBeGreaterThan(0);
});

test("when the signature, the path or a signed parameter is changed, then 403 SignatureDoesNotMatch", async () => {
  const url = new URL(await signed());
  const signature = url.searchParams.get("X-Goog-Signature") as string;
  const flipped = new URL(url);
  flipped.searchParams.set(
    "X-Goog-Signature",
    `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`,
  );
  const moved = new URL(url);
  moved.pathname = moved.pathname.replace("job", "job2");
  const renamed = new URL(url);
  renamed.searchParams.set("response-content-disposition", 'attachment; filename="other.mbox"');
  for (const tampered of [flipped, moved, renamed]) {
    const response = await fetch(tampered);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("<Code>SignatureDoesNotMatch</Code>");
  }
});

test("when the link is signed by an account the emulator does not know, or by another key, then 403", async () => {
  for (const url of [
    await signed({ email: "stranger@demo.iam.gserviceaccount.com" }),
    await signed({ key: other.privateKey }),
  ]) {
    const response = await fetch(url);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("SignatureDoesNotMatch");
  }
});

test("when the link has expired, then 400 ExpiredToken", async () => {
  const url = new URL(await signed({ expires: Date.now() + 1000 }));
  // Signed 2 hours ago for 1 hour (the signature is checked after the expiry, so any signature will do).
  const past = new Date(Date.now() - 2 * 3600_000)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  url.searchParams.set("X-Goog-Date", past);
  url.searchParams.set("X-Goog-Credential", `${EMAIL}/${past.slice(0, 8)}/auto/storage/goog4_request`);
  url.searchParams.set("X-Goog-Expires", "3600");
  const response = await fetch(url);
  expect(response.status).toBe(400);
  expect(await response.text()).toContain("<Code>ExpiredToken</Code>");
});

test("when an object is read by its XML path without a signature, then 403 AccessDenied", async () => {
  const response = await fetch(`${emulator.url}/${BUCKET}/${encodeURIComponent(NAME)}`);
  expect(response.status).toBe(403);
  expect(await response.text()).toContain("<Code>AccessDenied</Code>");
});

test("when a signed link names an object that does not exist, then 404 NoSuchKey", async () => {
  const response = await fetch(await signed({ name: "o/org/x/none.mbox" }));
  expect(response.status).toBe(404);
  expect(await response.text()).toContain("<Code>NoSuchKey</Code>");
});
