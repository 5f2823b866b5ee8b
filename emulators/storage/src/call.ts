/**
 * One JSON API call as the handlers see it, what they answer with, and the resources they answer: request
 * headers, custom metadata, byte ranges, and buckets and objects as the JSON API renders them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { invalid, rangeNotSatisfiable } from "./http";
import { type CustomerKeys } from "./customer-keys";
import { StorageStore } from "./store";
import { type StoredBucket, type StoredObject } from "./store-model";
import { UploadSessions } from "./uploads";

/** The parts of the emulator the handlers use. */
export interface StorageApi {
  store: StorageStore;
  uploads: UploadSessions;
  keys: CustomerKeys;
}

export interface Call {
  request: IncomingMessage;
  response: ServerResponse;
  query: URLSearchParams;
  /** `http://host:port` as the client addressed us (for `Location`, `selfLink`, `mediaLink`). */
  base: string;
  bucket?: string;
  object?: string;
}

/** A handler's JSON answer, or `RESPONDED` when it wrote the response itself. */
export const RESPONDED = Symbol("responded");
export type Handler = (call: Call) => Promise<unknown> | unknown;

export interface Route {
  operation: string;
  handler: Handler;
}

export function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Custom metadata: string values (and `null` to remove a key, in a patch). */
export function customMetadata(
  value: unknown,
  allowNull: boolean,
): Record<string, string | null> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value))
    throw invalid("Invalid metadata: an object is required.");
  const out: Record<string, string | null> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry === null && allowNull) out[key] = null;
    else if (typeof entry === "string") out[key] = entry;
    else if (typeof entry === "number" || typeof entry === "boolean") out[key] = String(entry);
    else throw invalid(`Invalid metadata value for '${key}'.`);
  }
  return out;
}

/**
 * A single `Range: bytes=` range, clamped to the object; `undefined` serves the whole object (no header, a
 * header it does not understand, or an empty object); 416 when it starts past the end.
 */
export function parseRange(
  value: string | undefined,
  size: number,
): { start: number; end: number } | undefined {
  if (!value) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (size === 0) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) throw rangeNotSatisfiable();
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) throw rangeNotSatisfiable();
  if (end < start) return undefined;
  return { start, end };
}

export function etag(stored: StoredObject): string {
  return Buffer.from(`${stored.generation}/${stored.metageneration}`).toString("base64");
}

export function bucketJson(bucket: StoredBucket, base: string): Record<string, unknown> {
  return {
    kind: "storage#bucket",
    id: bucket.name,
    selfLink: `${base}/storage/v1/b/${encodeURIComponent(bucket.name)}`,
    projectNumber: "0",
    name: bucket.name,
    timeCreated: bucket.timeCreated,
    updated: bucket.timeCreated,
    metageneration: String(bucket.metageneration),
    location: bucket.location,
    locationType: "region",
    storageClass: "STANDARD",
    etag: "CAE=",
    ...(bucket.defaultKmsKeyName ? { encryption: { defaultKmsKeyName: bucket.defaultKmsKeyName } } : {}),
  };
}

/**
 * An object resource as the JSON API answers it (numbers as strings, hashes in base64). An object under a
 * customer-managed key names the key version (`kmsKeyName`); its checksums are encrypted under that key, so
 * `keyEnabled: false` (the version is disabled or destroyed) leaves them out.
 */
export function objectJson(stored: StoredObject, base: string, keyEnabled = true): Record<string, unknown> {
  const path = `b/${encodeURIComponent(stored.bucket)}/o/${encodeURIComponent(stored.name)}`;
  return {
    kind: "storage#object",
    id: `${stored.bucket}/${stored.name}/${stored.generation}`,
    selfLink: `${base}/storage/v1/${path}`,
    mediaLink: `${base}/download/storage/v1/${path}?generation=${stored.generation}&alt=media`,
    name: stored.name,
    bucket: stored.bucket,
    generation: String(stored.generation),
    metageneration: String(stored.metageneration),
    contentType: stored.contentType,
    storageClass: "STANDARD",
    size: String(stored.size),
    ...(keyEnabled ? { md5Hash: stored.md5Hash, crc32c: stored.crc32c } : {}),
    etag: etag(stored),
    timeCreated: stored.timeCreated,
    updated: stored.updated,
    timeStorageClassUpdated: stored.timeCreated,
    ...(Object.keys(stored.metadata).length > 0 ? { metadata: stored.metadata } : {}),
    ...(stored.encryption ? { kmsKeyName: stored.encryption.kmsKeyName } : {}),
  };
}

/**
 * Object resources for metadata reads (get, list, patch): each key version an object names is asked for its
 * state once per call.
 */
export async function objectResources(
  api: StorageApi,
  objects: StoredObject[],
  base: string,
): Promise<Record<string, unknown>[]> {
  const versions = [...new Set(objects.flatMap((stored) => stored.encryption?.kmsKeyName ?? []))];
  const states = await Promise.all(versions.map((version) => api.keys.enabled(version)));
  const enabled = new Map(versions.map((version, index) => [version, states[index] as boolean]));
  return objects.map((stored) =>
    objectJson(stored, base, stored.encryption ? (enabled.get(stored.encryption.kmsKeyName) ?? false) : true),
  );
}
