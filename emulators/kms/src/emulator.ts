/**
 * The KMS emulator's dispatcher: Cloud KMS v1's REST paths (key rings, crypto keys, versions, encrypt and
 * decrypt) answered with Cloud KMS's JSON shapes and error bodies, plus the emulator-only admin API
 * (`/emulator/v1`). No authentication: any bearer token (or none) is accepted.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { crc32c } from "./crc32c";
import { KmsError, invalidArgument, parseJsonObject, readBody, sendJson } from "./http";
import {
  KmsStore,
  VERSION_STATES,
  VERSION_STATE_NUMBERS,
  checkId,
  versionId,
  type CryptoKey,
  type CryptoKeyVersion,
  type KeyRing,
  type VersionState,
} from "./store";

export const ADMIN_PREFIX = "/emulator/v1";

const SEGMENT = "([^/:]+)";
const LOCATION = `projects/${SEGMENT}/locations/${SEGMENT}`;
const KEY_RING = `${LOCATION}/keyRings/${SEGMENT}`;
const CRYPTO_KEY = `${KEY_RING}/cryptoKeys/${SEGMENT}`;
const VERSION = `${CRYPTO_KEY}/cryptoKeyVersions/${SEGMENT}`;

interface Request {
  method: string;
  /** The resource name the path names (`projects/.../cryptoKeys/k`), decoded. */
  name: string;
  query: URLSearchParams;
  json(): Promise<Record<string, unknown>>;
  /** Enums as numbers (`$alt=json;enum-encoding=int`, what the Node client asks for) or names. */
  numericEnums: boolean;
}

type Handler = (request: Request) => Promise<unknown> | unknown;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

export class KmsEmulator {
  readonly store = new KmsStore();
  private readonly routes: Route[] = [];

  constructor() {
    this.registerApi();
    this.registerCrypto();
    this.registerAdmin();
  }

  private add(method: string, source: string, handler: Handler): void {
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), handler });
  }

  readonly handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? "/", "http://kms.emulator");
    const method = request.method ?? "GET";
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      sendJson(response, 400, invalidArgument("The request path is not valid.").body());
      return;
    }
    const route = this.routes.find(
      (candidate) => candidate.method === method && candidate.pattern.test(path),
    );
    try {
      if (!route) {
        throw new KmsError("NOT_FOUND", `Method not found: ${method} ${url.pathname}`);
      }
      const verb = /:[a-zA-Z]+$/.exec(path)?.[0] ?? "";
      const prefix = path.startsWith(ADMIN_PREFIX) ? ADMIN_PREFIX : "/v1";
      const name = path.slice(prefix.length + 1, path.length - verb.length);
      let body: Promise<Record<string, unknown>> | undefined;
      const alt = url.searchParams.get("$alt") ?? "";
      const result = await route.handler({
        method,
        name,
        query: url.searchParams,
        json: () => (body ??= readBody(request).then(parseJsonObject)),
        numericEnums: /enum-encoding=int/.test(alt),
      });
      sendJson(response, 200, result ?? {});
    } catch (error) {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      if (error instanceof KmsError) {
        sendJson(response, error.code, error.body());
      } else {
        console.error("KMS emulator: request failed", error);
        sendJson(response, 500, new KmsError("INTERNAL", "Internal error encountered.").body());
      }
    }
  };

  /** Key rings, crypto keys and their versions. */
  private registerApi(): void {
    const { store } = this;
    const v1 = (method: string, path: string, handler: Handler) => this.add(method, `/v1/${path}`, handler);

    // Key rings
    v1("POST", `${LOCATION}/keyRings`, (request) => {
      const id = request.query.get("keyRingId");
      if (!id) throw invalidArgument("key_ring_id is required.");
      return keyRingJson(store.createKeyRing(parentOf(request.name), id));
    });
    v1("GET", `${LOCATION}/keyRings`, (request) =>
      page(request, "keyRings", store.listKeyRings(parentOf(request.name)).map(keyRingJson)),
    );
    v1("GET", KEY_RING, (request) => keyRingJson(store.keyRing(checkedName(request.name))));

    // Crypto keys
    v1("POST", `${KEY_RING}/cryptoKeys`, async (request) => {
      const id = request.query.get("cryptoKeyId");
      if (!id) throw invalidArgument("crypto_key_id is required.");
      const body = await request.json();
      const purpose = body.purpose;
      if (purpose !== "ENCRYPT_DECRYPT" && purpose !== 1) {
        throw invalidArgument(
          "The emulator supports only symmetric keys: crypto_key.purpose must be ENCRYPT_DECRYPT.",
        );
      }
      const key = store.createCryptoKey(checkedName(parentOf(request.name)), id, {
        labels: labels(body.labels),
        skipInitialVersion: request.query.get("skipInitialVersionCreation") === "true",
      });
      return cryptoKeyJson(key, request.numericEnums);
    });
    v1("GET", `${KEY_RING}/cryptoKeys`, (request) =>
      page(
        request,
        "cryptoKeys",
        store
          .listCryptoKeys(checkedName(parentOf(request.name)))
          .map((key) => cryptoKeyJson(key, request.numericEnums)),
      ),
    );
    v1("GET", CRYPTO_KEY, (request) =>
      cryptoKeyJson(store.cryptoKey(checkedName(request.name)), request.numericEnums),
    );
    v1("POST", `${CRYPTO_KEY}:updatePrimaryVersion`, async (request) => {
      const key = store.cryptoKey(checkedName(request.name));
      const id = (await request.json()).cryptoKeyVersionId;
      if (typeof id !== "string" || !/^\d+$/.test(id))
        throw invalidArgument("crypto_key_version_id is required.");
      store.setPrimary(key, id);
      return cryptoKeyJson(key, request.numericEnums);
    });

    // Versions
    v1("POST", `${CRYPTO_KEY}/cryptoKeyVersions`, (request) =>
      versionJson(
        store.addVersion(store.cryptoKey(checkedName(parentOf(request.name)))),
        request.numericEnums,
      ),
    );
    v1("GET", `${CRYPTO_KEY}/cryptoKeyVersions`, (request) => {
      const key = store.cryptoKey(checkedName(parentOf(request.name)));
      return page(
        request,
        "cryptoKeyVersions",
        key.versions.map((version) => versionJson(version, request.numericEnums)),
      );
    });
    v1("GET", VERSION, (request) =>
      versionJson(store.version(checkedName(request.name)).version, request.numericEnums),
    );
    v1("PATCH", VERSION, async (request) => {
      const mask = (request.query.get("updateMask") ?? "").split(",").filter(Boolean);
      if (mask.length === 0) throw invalidArgument("update_mask is required.");
      if (mask.some((field) => field !== "state")) {
        throw invalidArgument(`Only 'state' can be updated; update_mask was '${mask.join(",")}'.`);
      }
      const state = parseState((await request.json()).state);
      return versionJson(store.updateState(checkedName(request.name), state), request.numericEnums);
    });
    v1("POST", `${VERSION}:destroy`, (request) =>
      versionJson(store.scheduleDestroy(checkedName(request.name)), request.numericEnums),
    );
    v1("POST", `${VERSION}:restore`, (request) =>
      versionJson(store.restoreVersion(checkedName(request.name)), request.numericEnums),
    );
  }

  /** Encrypt (on the key: its primary; on a version: that version) and decrypt (on the key). */
  private registerCrypto(): void {
    const { store } = this;
    const v1 = (method: string, path: string, handler: Handler) => this.add(method, `/v1/${path}`, handler);

    const encrypt: Handler = async (request) => {
      const name = checkedName(request.name);
      const body = await request.json();
      const plaintext = bytesField(body, "plaintext");
      const aad = bytesField(body, "additionalAuthenticatedData");
      const plaintextVerified = verifyChecksum(body, "plaintextCrc32c", plaintext);
      const aadVerified = verifyChecksum(body, "additionalAuthenticatedDataCrc32c", aad);
      const { version, ciphertext } = store.encrypt(name, plaintext, aad);
      return {
        name: version.name,
        ciphertext: ciphertext.toString("base64"),
        ciphertextCrc32c: String(crc32c(ciphertext)),
        verifiedPlaintextCrc32c: plaintextVerified,
        verifiedAdditionalAuthenticatedDataCrc32c: aadVerified,
        protectionLevel: request.numericEnums ? 1 : "SOFTWARE",
      };
    };
    v1("POST", `${CRYPTO_KEY}:encrypt`, encrypt);
    v1("POST", `${VERSION}:encrypt`, encrypt);
    v1("POST", `${CRYPTO_KEY}:decrypt`, async (request) => {
      const name = checkedName(request.name);
      const body = await request.json();
      const ciphertext = bytesField(body, "ciphertext");
      if (ciphertext.length === 0) throw invalidArgument("ciphertext is required.");
      const aad = bytesField(body, "additionalAuthenticatedData");
      verifyChecksum(body, "ciphertextCrc32c", ciphertext);
      verifyChecksum(body, "additionalAuthenticatedDataCrc32c", aad);
      const { plaintext, usedPrimary } = store.decrypt(name, ciphertext, aad);
      return {
        plaintext: plaintext.toString("base64"),
        plaintextCrc32c: String(crc32c(plaintext)),
        usedPrimary,
        protectionLevel: request.numericEnums ? 1 : "SOFTWARE",
      };
    });
  }

  /** Emulator-only: set any version state (DESTROYED at once, DISABLED...), list or clear everything. */
  private registerAdmin(): void {
    const { store } = this;
    this.add("POST", `${ADMIN_PREFIX}/${VERSION}:setState`, async (request) => {
      const state = parseState((await request.json()).state);
      return versionJson(store.forceState(checkedName(request.name), state), false);
    });
    this.add("GET", `${ADMIN_PREFIX}/cryptoKeys`, () => ({
      cryptoKeys: store.snapshot().cryptoKeys.map((key) => cryptoKeyJson(key, false)),
    }));
    this.add("POST", `${ADMIN_PREFIX}/reset`, () => {
      store.reset();
      return {};
    });
  }
}

/** Checks the ids inside a resource name (`*` segments of the REST path). */
function checkedName(name: string): string {
  const parts = name.split("/");
  for (let index = 0; index + 1 < parts.length; index += 2) {
    const kind = parts[index] as string;
    const id = parts[index + 1] as string;
    if (kind === "keyRings") checkId(id, "key ring id");
    else if (kind === "cryptoKeys") checkId(id, "crypto key id");
    else if (kind === "cryptoKeyVersions" && !/^\d{1,9}$/.test(id)) {
      throw invalidArgument(`Invalid crypto key version id '${id}'.`);
    } else if ((kind === "projects" || kind === "locations") && !/^[a-z0-9][a-z0-9.-]{0,62}$/i.test(id)) {
      throw invalidArgument(`Invalid ${kind.slice(0, -1)} '${id}'.`);
    }
  }
  return name;
}

/** `a/b/c/d/collection` → `a/b/c/d` (the path of a collection call names the collection last). */
function parentOf(name: string): string {
  return checkedName(name.slice(0, name.lastIndexOf("/")));
}

function parseState(value: unknown): VersionState {
  if (typeof value === "number") {
    const found = (Object.entries(VERSION_STATE_NUMBERS) as [VersionState, number][]).find(
      ([, number]) => number === value,
    );
    if (found) return found[0];
  }
  if (typeof value === "string" && (VERSION_STATES as readonly string[]).includes(value)) {
    return value as VersionState;
  }
  throw invalidArgument(`Invalid value for crypto_key_version.state: ${JSON.stringify(value)}.`);
}

function labels(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (
    typeof value !== "object" ||
    value === null ||
    !Object.values(value).every((entry) => typeof entry === "string")
  ) {
    throw invalidArgument("crypto_key.labels must map strings to strings.");
  }
  return value as Record<string, string>;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** A `bytes` field (proto3 JSON: base64, standard or URL-safe); absent is empty. */
function bytesField(body: Record<string, unknown>, field: string): Buffer {
  const value = body[field];
  if (value === undefined || value === null) return Buffer.alloc(0);
  if (typeof value !== "string" || !BASE64.test(value)) {
    throw invalidArgument(`Invalid value at '${field}' (TYPE_BYTES), Base64 decoding failed.`);
  }
  return Buffer.from(value.replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

/** Checks an optional CRC32C (an Int64Value, a string or number in JSON); true when one was given. */
function verifyChecksum(body: Record<string, unknown>, field: string, data: Buffer): boolean {
  const value = body[field];
  if (value === undefined || value === null) return false;
  const number = typeof value === "string" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number)) {
    throw invalidArgument(`Invalid value at '${field}': expected an integer.`);
  }
  if (number !== crc32c(data)) {
    throw invalidArgument(`The checksum in field ${field} did not match the data.`);
  }
  return true;
}

function page(request: Request, field: string, items: unknown[]): Record<string, unknown> {
  const size = Number(request.query.get("pageSize") ?? "") || 1000;
  const start = Number(request.query.get("pageToken") ?? "") || 0;
  if (!Number.isInteger(size) || size < 1 || !Number.isInteger(start) || start < 0) {
    throw invalidArgument("Invalid page_size or page_token.");
  }
  const slice = items.slice(start, start + size);
  return {
    ...(slice.length > 0 ? { [field]: slice } : {}),
    ...(start + size < items.length ? { nextPageToken: String(start + size) } : {}),
    totalSize: items.length,
  };
}

function keyRingJson(ring: KeyRing): Record<string, unknown> {
  return { name: ring.name, createTime: ring.createTime };
}

/** A version as Cloud KMS shows it (never its key material). */
export function versionJson(version: CryptoKeyVersion, numericEnums: boolean): Record<string, unknown> {
  return {
    name: version.name,
    state: numericEnums ? VERSION_STATE_NUMBERS[version.state] : version.state,
    protectionLevel: numericEnums ? 1 : "SOFTWARE",
    algorithm: numericEnums ? 1 : "GOOGLE_SYMMETRIC_ENCRYPTION",
    createTime: version.createTime,
    generateTime: version.generateTime,
    ...(version.destroyTime ? { destroyTime: version.destroyTime } : {}),
    ...(version.destroyEventTime ? { destroyEventTime: version.destroyEventTime } : {}),
  };
}

function cryptoKeyJson(key: CryptoKey, numericEnums: boolean): Record<string, unknown> {
  const primary = key.versions.find((version) => versionId(version.name) === key.primary);
  return {
    name: key.name,
    ...(primary ? { primary: versionJson(primary, numericEnums) } : {}),
    purpose: numericEnums ? 1 : "ENCRYPT_DECRYPT",
    createTime: key.createTime,
    versionTemplate: {
      protectionLevel: numericEnums ? 1 : "SOFTWARE",
      algorithm: numericEnums ? 1 : "GOOGLE_SYMMETRIC_ENCRYPTION",
    },
    ...(Object.keys(key.labels).length > 0 ? { labels: key.labels } : {}),
    destroyScheduledDuration: "2592000s",
  };
}
