/**
 * Saves and loads the store as readable, deterministic JSON: `<dataDir>/<project>/<database>.json`,
 * documents sorted by path, map keys sorted, values typed like Firestore's REST encoding
 * (`{"integerValue": "1"}` vs `{"doubleValue": 1}`, timestamps as RFC 3339 with nanoseconds, bytes
 * as base64). Files are written atomically (temporary file, then rename).
 */
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

import type { Store, StoredDocument } from "./store";
import { compareStrings, type Fields, type Timestamp, type Value } from "./values";

export const FORMAT_VERSION = 1;

type JsonValue =
  | { nullValue: null }
  | { booleanValue: boolean }
  | { integerValue: string }
  | { doubleValue: number | string }
  | { timestampValue: string }
  | { stringValue: string }
  | { bytesValue: string }
  | { referenceValue: string }
  | { geoPointValue: { latitude: number; longitude: number } }
  | { arrayValue: JsonValue[] }
  | { mapValue: Record<string, JsonValue> };

interface JsonDocument {
  path: string;
  createTime: string;
  updateTime: string;
  fields: Record<string, JsonValue>;
}

interface DatabaseFile {
  format: number;
  project: string;
  database: string;
  documents: JsonDocument[];
}

export function timestampToString({ seconds, nanos }: Timestamp): string {
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  return `${iso}.${String(nanos).padStart(9, "0")}Z`;
}

export function timestampFromString(text: string): Timestamp {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(text);
  if (!match) throw new Error(`Invalid timestamp in emulator data: ${text}`);
  return {
    seconds: Math.floor(Date.parse(`${match[1]}Z`) / 1000),
    nanos: Number((match[2] ?? "").padEnd(9, "0")),
  };
}

function encodeDouble(n: number): number | string {
  if (Number.isNaN(n)) return "NaN";
  if (n === Infinity) return "Infinity";
  if (n === -Infinity) return "-Infinity";
  if (Object.is(n, -0)) return "-0";
  return n;
}

function encodeFields(fields: Fields): Record<string, JsonValue> {
  const result: Record<string, JsonValue> = {};
  for (const key of Object.keys(fields).sort(compareStrings)) result[key] = encodeValue(fields[key] as Value);
  return result;
}

export function encodeValue(value: Value): JsonValue {
  if ("null_value" in value) return { nullValue: null };
  if ("boolean_value" in value) return { booleanValue: value.boolean_value };
  if ("integer_value" in value) return { integerValue: String(value.integer_value) };
  if ("double_value" in value) return { doubleValue: encodeDouble(value.double_value) };
  if ("timestamp_value" in value) return { timestampValue: timestampToString(value.timestamp_value) };
  if ("string_value" in value) return { stringValue: value.string_value };
  if ("bytes_value" in value) return { bytesValue: Buffer.from(value.bytes_value).toString("base64") };
  if ("reference_value" in value) return { referenceValue: value.reference_value };
  if ("geo_point_value" in value) return { geoPointValue: { ...value.geo_point_value } };
  if ("array_value" in value) return { arrayValue: value.array_value.values.map(encodeValue) };
  return { mapValue: encodeFields(value.map_value.fields) };
}

export function decodeValue(json: JsonValue): Value {
  if ("nullValue" in json) return { null_value: 0 };
  if ("booleanValue" in json) return { boolean_value: json.booleanValue };
  if ("integerValue" in json) return { integer_value: Number(json.integerValue) };
  if ("doubleValue" in json) return { double_value: Number(json.doubleValue) };
  if ("timestampValue" in json) return { timestamp_value: timestampFromString(json.timestampValue) };
  if ("stringValue" in json) return { string_value: json.stringValue };
  if ("bytesValue" in json) return { bytes_value: new Uint8Array(Buffer.from(json.bytesValue, "base64")) };
  if ("referenceValue" in json) return { reference_value: json.referenceValue };
  if ("geoPointValue" in json) return { geo_point_value: { ...json.geoPointValue } };
  if ("arrayValue" in json) return { array_value: { values: json.arrayValue.map(decodeValue) } };
  if ("mapValue" in json) return { map_value: { fields: decodeFields(json.mapValue) } };
  throw new Error(`Unknown value in emulator data: ${JSON.stringify(json)}`);
}

function decodeFields(json: Record<string, JsonValue>): Fields {
  const fields: Fields = {};
  for (const [key, value] of Object.entries(json)) fields[key] = decodeValue(value);
  return fields;
}

const fileName = (database: string) => `${encodeURIComponent(database)}.json`;

/** Writes one file per database that has documents (and removes none: an empty database keeps its file). */
export async function saveStore(store: Store, dataDir: string): Promise<string[]> {
  const written: string[] = [];
  for (const database of [...store.databases.values()].sort((a, b) => compareStrings(a.name, b.name))) {
    const documents = [...database.all()].sort((a, b) => compareStrings(a.path, b.path));
    const content: DatabaseFile = {
      format: FORMAT_VERSION,
      project: database.project,
      database: database.databaseId,
      documents: documents.map((d) => ({
        path: d.path,
        createTime: timestampToString(d.createTime),
        updateTime: timestampToString(d.updateTime),
        fields: encodeFields(d.fields),
      })),
    };
    const directory = join(dataDir, encodeURIComponent(database.project));
    await mkdir(directory, { recursive: true });
    const target = join(directory, fileName(database.databaseId));
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`);
    await rename(temporary, target);
    written.push(target);
  }
  return written;
}

/** Loads every `<project>/<database>.json` below `dataDir` (a missing directory is an empty store). */
export async function loadStore(store: Store, dataDir: string): Promise<number> {
  let projects: string[];
  try {
    projects = await readdir(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  let count = 0;
  for (const project of projects.sort()) {
    let files: string[];
    try {
      files = (await readdir(join(dataDir, project))).filter((f) => f.endsWith(".json"));
    } catch {
      continue; // not a project directory
    }
    for (const file of files.sort()) {
      const content = JSON.parse(await readFile(join(dataDir, project, file), "utf8")) as DatabaseFile;
      if (content.format !== FORMAT_VERSION) {
        throw new Error(
          `Unsupported emulator data format ${content.format} in ${join(dataDir, project, file)}`,
        );
      }
      const database = store.database(`projects/${content.project}/databases/${content.database}`);
      database.clear();
      for (const json of content.documents) {
        const document: StoredDocument = {
          path: json.path,
          fields: decodeFields(json.fields),
          createTime: timestampFromString(json.createTime),
          updateTime: timestampFromString(json.updateTime),
        };
        database.put(document);
        store.advanceClock(document.updateTime);
        count++;
      }
    }
  }
  return count;
}
