/**
 * The JSON API's objects: `objects.get` (metadata, or media with ranges), `objects.list` (prefix,
 * delimiter, paging), `objects.patch` and `objects.delete`, with their generation and metageneration
 * preconditions.
 */
import { createReadStream, openSync } from "node:fs";
import { pipeline } from "node:stream/promises";
import { intParam, invalid, notFound, parseJsonObject, readBody } from "./http";
import { MAX_LIST_RESULTS, preconditionsFrom, type StoredObject } from "./store-model";
import { RESPONDED, customMetadata, etag, objectJson, parseRange, type Call, type StorageApi } from "./call";

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

export function getObject(api: StorageApi, call: Call): unknown {
  return objectJson(liveObject(api, call), call.base);
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
  };
  const range = parseRange(call.request.headers.range, size);
  // Opened now, while `stored` is live: a later overwrite or delete cannot take the file from this read.
  const path = api.store.blobPath(stored);
  const fd = openSync(path, "r");
  const body = createReadStream(path, range ? { fd, start: range.start, end: range.end } : { fd });
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

export function list(api: StorageApi, call: Call): unknown {
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
    ...(result.items.length > 0 ? { items: result.items.map((item) => objectJson(item, call.base)) } : {}),
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
  return objectJson(stored, call.base);
}

export function deleteObject(api: StorageApi, call: Call): unknown {
  api.store.delete(call.bucket as string, call.object as string, preconditions(api, call));
  call.response.writeHead(204);
  call.response.end();
  return RESPONDED;
}
