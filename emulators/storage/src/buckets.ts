/**
 * The JSON API's buckets: `buckets.list`, `buckets.insert`, `buckets.get` and `buckets.delete`. A bucket
 * may name a default customer-managed key (`encryption.defaultKmsKeyName`), checked when it is created as
 * Cloud Storage checks it: a crypto key's name, in the bucket's location, that its service agent can use.
 */
import { checkKeyName } from "./customer-keys";
import { invalid, parseJsonObject, readBody, required } from "./http";
import { checkBucketName } from "./store-model";
import { RESPONDED, bucketJson, type Call, type StorageApi } from "./call";

export function listBuckets(api: StorageApi, call: Call): unknown {
  if (!call.query.get("project")) throw required("project");
  const items = api.store.listBuckets().map((bucket) => bucketJson(bucket, call.base));
  return { kind: "storage#buckets", ...(items.length > 0 ? { items } : {}) };
}

export async function insertBucket(api: StorageApi, call: Call): Promise<unknown> {
  if (!call.query.get("project")) throw required("project");
  const body = parseJsonObject(await readBody(call.request));
  if (typeof body.name !== "string" || body.name === "") throw required("name");
  const location = typeof body.location === "string" ? body.location : undefined;
  const defaultKmsKeyName = defaultKeyOf(body.encryption);
  if (defaultKmsKeyName !== undefined) {
    checkBucketName(body.name);
    checkKeyName(defaultKmsKeyName, { location: (location ?? "US").toUpperCase() });
    await api.keys.checkUsable(defaultKmsKeyName);
  }
  return bucketJson(api.store.createBucket(body.name, location, { defaultKmsKeyName }), call.base);
}

/** `encryption: {defaultKmsKeyName}` of a bucket resource (absent or `null`: none). */
function defaultKeyOf(encryption: unknown): string | undefined {
  if (encryption === undefined || encryption === null) return undefined;
  if (typeof encryption !== "object" || Array.isArray(encryption)) throw invalid("Invalid encryption.");
  const key = (encryption as { defaultKmsKeyName?: unknown }).defaultKmsKeyName;
  if (key === undefined || key === null) return undefined;
  if (typeof key !== "string") throw invalid("Invalid encryption.defaultKmsKeyName.");
  return key;
}

export function getBucket(api: StorageApi, call: Call): unknown {
  return bucketJson(api.store.bucket(call.bucket as string), call.base);
}

export function deleteBucket(api: StorageApi, call: Call): unknown {
  api.store.deleteBucket(call.bucket as string);
  call.response.writeHead(204);
  call.response.end();
  return RESPONDED;
}
