/**
 * The JSON API's `objects.insert`: media, multipart and resumable uploads (session chunks and
 * cancellation), checksums checked against what the client sent.
 */
import { MAX_BODY_BYTES, invalid, parseJsonObject, readBody, required } from "./http";
import { type StagedBlob, type StoredObject } from "./store-model";
import { decodeMultipart } from "./multipart";
import { checksumsOf, parseGoogHash, verifyChecksums, type InsertRequest } from "./uploads";
import { RESPONDED, customMetadata, header, objectJson, type Call, type StorageApi } from "./call";
import { preconditions } from "./objects";

export async function insert(api: StorageApi, call: Call): Promise<unknown> {
  const uploadType = call.query.get("uploadType") ?? "";
  const headerType = call.request.headers["content-type"];
  const bucket = call.bucket as string;
  api.store.bucket(bucket);
  const request = (metadata: Record<string, unknown>, contentType: string | undefined): InsertRequest => {
    const name = call.query.get("name") ?? (typeof metadata.name === "string" ? metadata.name : "");
    if (!name) throw required("name");
    return {
      bucket,
      name,
      contentType: typeof metadata.contentType === "string" ? metadata.contentType : contentType,
      metadata: customMetadata(metadata.metadata, false) as Record<string, string> | undefined,
      preconditions: preconditions(api, call),
      expected: {
        crc32c: typeof metadata.crc32c === "string" ? metadata.crc32c : undefined,
        md5Hash: typeof metadata.md5Hash === "string" ? metadata.md5Hash : undefined,
      },
    };
  };
  if (uploadType === "media") {
    const insert = request({}, headerType);
    const data = await readBody(call.request, MAX_BODY_BYTES);
    const sums = checksumsOf(data);
    verifyChecksums(sums, parseGoogHash(header(call.request, "x-goog-hash")));
    api.store.insertable(insert.bucket, insert.name, insert.preconditions); // before writing the file
    return objectJson(finishInsert(api, insert, await api.store.stage(data, sums)), call.base);
  }
  if (uploadType === "multipart") {
    const body = await readBody(call.request, MAX_BODY_BYTES);
    const decoded = decodeMultipart(body, headerType ?? "");
    const insert = request(decoded.metadata, decoded.contentType);
    const sums = checksumsOf(decoded.data);
    verifyChecksums(sums, { ...insert.expected, ...parseGoogHash(header(call.request, "x-goog-hash")) });
    api.store.insertable(insert.bucket, insert.name, insert.preconditions);
    return objectJson(finishInsert(api, insert, await api.store.stage(decoded.data, sums)), call.base);
  }
  if (uploadType === "resumable") {
    const metadata = parseJsonObject(await readBody(call.request));
    const insert = request(metadata, header(call.request, "x-upload-content-type"));
    const declared = header(call.request, "x-upload-content-length");
    const total = declared === undefined ? undefined : Number(declared);
    if (total !== undefined && (!Number.isInteger(total) || total < 0)) {
      throw invalid("Invalid X-Upload-Content-Length.");
    }
    // Preconditions are checked when the session opens, and again when it completes.
    api.store.insertable(insert.bucket, insert.name, insert.preconditions);
    const id = api.uploads.open(insert, total);
    const location = new URL(`/upload/storage/v1/b/${encodeURIComponent(bucket)}/o`, call.base);
    location.searchParams.set("uploadType", "resumable");
    location.searchParams.set("name", insert.name);
    location.searchParams.set("upload_id", id);
    call.response.writeHead(200, {
      location: location.toString(),
      "x-guploader-uploadid": id,
      "content-length": "0",
    });
    call.response.end();
    return RESPONDED;
  }
  throw invalid(
    `Invalid upload type: '${uploadType}'. Use media, multipart or resumable.`,
    "invalidParameter",
  );
}

/** Makes a staged file the object (the store owns the file from here, even when this throws). */
export function finishInsert(api: StorageApi, insert: InsertRequest, staged: StagedBlob): StoredObject {
  return api.store.insert(insert.bucket, insert.name, staged, {
    contentType: insert.contentType,
    metadata: insert.metadata,
    preconditions: insert.preconditions,
  });
}

export async function uploadChunk(api: StorageApi, call: Call): Promise<unknown> {
  const id = call.query.get("upload_id");
  if (!id) throw required("upload_id");
  // The body streams to the session's file: a chunk of any size, never read whole into memory.
  const answer = await api.uploads.put(
    id,
    header(call.request, "content-range"),
    call.request,
    header(call.request, "x-goog-hash"),
  );
  if ("incomplete" in answer) {
    const headers: Record<string, string> = { "content-length": "0", "x-guploader-uploadid": id };
    if (answer.incomplete > 0) headers.range = `bytes=0-${answer.incomplete - 1}`;
    call.response.writeHead(308, headers);
    call.response.end();
    return RESPONDED;
  }
  if ("error" in answer) throw answer.error;
  return objectJson(answer.object, call.base);
}

export function cancelUpload(api: StorageApi, call: Call): unknown {
  const id = call.query.get("upload_id");
  if (!id) throw required("upload_id");
  api.uploads.cancel(id);
  call.response.writeHead(499, { "content-length": "0" });
  call.response.end();
  return RESPONDED;
}
