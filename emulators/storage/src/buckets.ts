/**
 * The JSON API's buckets: `buckets.list`, `buckets.insert`, `buckets.get` and `buckets.delete`.
 */
import { parseJsonObject, readBody, required } from "./http";
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
  return bucketJson(api.store.createBucket(body.name, location), call.base);
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
