/**
 * The JSON API's `objects.insert`: media, multipart and resumable uploads (session chunks and
 * cancellation), checksums checked against what the client sent. An insert under a customer-managed key
 * (the `kmsKeyName` query parameter, else the metadata's `kmsKeyName`, else the bucket's
 * `encryption.defaultKmsKeyName`) gets a fresh data key wrapped by Cloud KMS, and its bytes are sealed
 * with it before they reach the disk.
 */
import { checkKeyName } from "./customer-keys";
import { MAX_BODY_BYTES, invalid, parseJsonObject, readBody, required } from "./http";
import { decodeMultipart } from "./multipart";
import { type StagedBlob, type StoredObject } from "./store-model";
import { checksumsOf, parseGoogHash, verifyChecksums, type InsertRequest } from "./uploads";
import { RESPONDED, customMetadata, header, objectJson, type Call, type StorageApi } from "./call";
import { preconditions } from "./objects";

export async function insert(api: StorageApi, call: Call): Promise<unknown> {
  const uploadType = call.query.get("uploadType") ?? "";
  const headerType = call.request.headers["content-type"];
  const bucket = call.bucket as string;
  const target = api.store.bucket(bucket);
  const request = (metadata: Record<string, unknown>, contentType: string | undefined): InsertRequest => {
    const name = call.query.get("name") ?? (typeof metadata.name === "string" ? metadata.name : "");
    if (!name) throw required("name");
    // The query parameter overrides the metadata's key (objects.insert reference), which overrides the bucket's.
    const kmsKeyName =
      call.query.get("kmsKeyName") ??
      (typeof metadata.kmsKeyName === "string" ? metadata.kmsKeyName : undefined) ??
      target.defaultKmsKeyName;
    if (kmsKeyName !== undefined) checkKeyName(kmsKeyName, target);
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
      ...(kmsKeyName !== undefined ? { kmsKeyName } : {}),
    };
  };
  if (uploadType === "media") {
    const insert = request({}, headerType);
    const data = await readBody(call.request, MAX_BODY_BYTES);
    const sums = checksumsOf(data);
    verifyChecksums(sums, parseGoogHash(header(call.request, "x-goog-hash")));
    api.store.insertable(insert.bucket, insert.name, insert.preconditions); // before writing the file
    return stageAndInsert(api, call, insert, data, sums);
  }
  if (uploadType === "multipart") {
    const body = await readBody(call.request, MAX_BODY_BYTES);
    const decoded = decodeMultipart(body, headerType ?? "");
    const insert = request(decoded.metadata, decoded.contentType);
    const sums = checksumsOf(decoded.data);
    verifyChecksums(sums, { ...insert.expected, ...parseGoogHash(header(call.request, "x-goog-hash")) });
    api.store.insertable(insert.bucket, insert.name, insert.preconditions);
    return stageAndInsert(api, call, insert, decoded.data, sums);
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
    // The data key is made (and the key checked) when the session opens; each PUT unwraps it again.
    const encryption = insert.kmsKeyName
      ? (await api.keys.newDataKey(insert.kmsKeyName)).encryption
      : undefined;
    const id = api.uploads.open({ ...insert, ...(encryption ? { encryption } : {}) }, total);
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

/** A body read whole (media, multipart) written to disk, sealed under its key if it has one, and inserted. */
async function stageAndInsert(
  api: StorageApi,
  call: Call,
  insert: InsertRequest,
  data: Buffer,
  sums: { md5Hash: string; crc32c: string },
): Promise<unknown> {
  if (!insert.kmsKeyName)
    return objectJson(finishInsert(api, insert, await api.store.stage(data, sums)), call.base);
  const { encryption, dataKey } = await api.keys.newDataKey(insert.kmsKeyName);
  const staged = await api.store.stage(data, sums, dataKey);
  return objectJson(finishInsert(api, { ...insert, encryption }, staged), call.base);
}

/** Makes a staged file the object (the store owns the file from here, even when this throws). */
export function finishInsert(api: StorageApi, insert: InsertRequest, staged: StagedBlob): StoredObject {
  return api.store.insert(insert.bucket, insert.name, staged, {
    contentType: insert.contentType,
    metadata: insert.metadata,
    preconditions: insert.preconditions,
    encryption: insert.encryption,
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
