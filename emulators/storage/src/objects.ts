/**
 * The JSON API's objects: `objects.get` (metadata, or media with ranges), `objects.list` (prefix,
 * delimiter, paging), `objects.patch` and `objects.delete`, with their generation and metageneration
 * preconditions. The bytes of an object under a customer-managed key are opened with its data key, which
 * Cloud KMS unwraps for each read; its metadata stays readable while the key version is disabled.
 */
import { closeSync, createReadStream, openSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { intParam, invalid, notFound, parseJsonObject, readBody } from "./http";
import { checkSealedFile, openRange } from "./sealed-blobs";
import { MAX_LIST_RESULTS, preconditionsFrom, type StoredObject } from "./store-model";
import {
  RESPONDED,
  customMetadata,
  etag,
  objectResources,
  parseRange,
  type Call,
  type StorageApi,
} from "./call";

export function preconditions(api: StorageApi, call: Call) {
  return preconditionsFrom((name) => intParam(call.query, name));
}

/** The live object, 404 when a `generation` other than the live one is asked for. */
export function liveObject(api: StorageApi, call: Call): StoredObject {
  const stored = api.store.object(call.bucket as string, call.object as string, preconditions(api, call));
  const generation = intParam(call.query, "generation");
  if (generation !== undefined && generation !== stored.generation) {
    throw notFound(`No such object: ${stored.bucket}/${stored.name}`);
  }
  return stored;
}

export async function getObject(api: StorageApi, call: Call): Promise<unknown> {
  const [resource] = await objectResources(api, [liveObject(api, call)], call.base);
  return resource;
}

/**
 * The object's bytes `start..end` from the file open at `fd`: as they are, or opened with the data key Cloud
 * KMS unwraps now (this throws Cloud Storage's error while the key version cannot be used).
 */
async function objectBytes(
  api: StorageApi,
  stored: StoredObject,
  fd: number,
  range: { start: number; end: number } | undefined,
): Promise<Readable> {
  const path = api.store.blobPath(stored);
  if (!stored.encryption) {
    return createReadStream(path, range ? { fd, start: range.start, end: range.end } : { fd });
  }
  try {
    checkSealedFile(fd, stored.size);
    const dataKey = await api.keys.dataKey(stored.encryption);
    const bytes = openRange(fd, dataKey, stored.size, range?.start ?? 0, range?.end ?? stored.size - 1);
    const body = Readable.from(bytes);
    body.once("close", () => closeSync(fd));
    return body;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

export async function media(api: StorageApi, call: Call, contentType?: string): Promise<unknown> {
  const stored = liveObject(api, call);
  const size = stored.size;
  const headers: Record<string, string> = {
    "content-type": contentType ?? stored.contentType,
    "accept-ranges": "bytes",
    etag: etag(stored),
    "x-goog-generation": String(stored.generation),
    "x-goog-metageneration": String(stored.metageneration),
    "x-goog-hash": `crc32c=${stored.crc32c},md5=${stored.md5Hash}`,
    "x-goog-stored-content-encoding": "identity",
    "x-goog-stored-content-length": String(size),
    ...(stored.encryption ? { "x-goog-encryption-kms-key-name": stored.encryption.kmsKeyName } : {}),
  };
  const range = parseRange(call.request.headers.range, size);
  // Opened now, while `stored` is live: a later overwrite or delete cannot take the file from this read.
  const fd = openSync(api.store.blobPath(stored), "r");
  const body = await objectBytes(api, stored, fd, range);
  if (range) {
    call.response.writeHead(206, {
      ...headers,
      "content-range": `bytes ${range.start}-${range.end}/${size}`,
      "content-length": String(range.end - range.start + 1),
    });
  } else {
    call.response.writeHead(200, { ...headers, "content-length": String(size) });
  }
  await pipeline(body, call.response);
  return RESPONDED;
}

export async function list(api: StorageApi, call: Call): Promise<unknown> {
  const maxResults = intParam(call.query, "maxResults");
  const result = api.store.list(call.bucket as string, {
    prefix: call.query.get("prefix") ?? undefined,
    delimiter: call.query.get("delimiter") ?? undefined,
    pageToken: call.query.get("pageToken") ?? undefined,
    maxResults: maxResults ?? MAX_LIST_RESULTS,
    startOffset: call.query.get("startOffset") ?? undefined,
    endOffset: call.query.get("endOffset") ?? undefined,
  });
  return {
    kind: "storage#objects",
    ...(result.nextPageToken ? { nextPageToken: result.nextPageToken } : {}),
    ...(result.prefixes.length > 0 ? { prefixes: result.prefixes } : {}),
    ...(result.items.length > 0 ? { items: await objectResources(api, result.items, call.base) } : {}),
  };
}

export async function patch(api: StorageApi, call: Call): Promise<unknown> {
  const body = parseJsonObject(await readBody(call.request));
  const contentType = body.contentType;
  if (contentType !== undefined && typeof contentType !== "string") throw invalid("Invalid contentType.");
  const stored = api.store.patch(
    call.bucket as string,
    call.object as string,
    {
      contentType,
      metadata: customMetadata(body.metadata, true) as Record<string, string | null> | undefined,
    },
    preconditions(api, call),
  );
  const [resource] = await objectResources(api, [stored], call.base);
  return resource;
}

export function deleteObject(api: StorageApi, call: Call): unknown {
  api.store.delete(call.bucket as string, call.object as string, preconditions(api, call));
  call.response.writeHead(204);
  call.response.end();
  return RESPONDED;
}
