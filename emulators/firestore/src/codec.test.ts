import { MapValue } from "@firestore-emulator/proto/dist/google/firestore/v1/document";
import {
  BatchGetDocumentsResponse,
  RunQueryResponse,
} from "@firestore-emulator/proto/dist/google/firestore/v1/firestore";

import { packFields, unpackFields } from "./codec";
import { batchGetResponse, runQueryResponse } from "./responses";
import { fieldsFromProto, type Fields } from "./values";

const FIELDS: Fields = {
  null: { null_value: 0 },
  yes: { boolean_value: true },
  no: { boolean_value: false },
  zero: { integer_value: 0 },
  int: { integer_value: 1_234_567_890_123 },
  large: { integer_value: 2 ** 53 - 1 },
  negative: { integer_value: -42 },
  min: { integer_value: -(2 ** 53) },
  double: { double_value: 2.5 },
  nan: { double_value: NaN },
  infinite: { double_value: -Infinity },
  negativeZero: { double_value: -0 },
  when: { timestamp_value: { seconds: 1_700_000_000, nanos: 5000 } },
  epoch: { timestamp_value: { seconds: 0, nanos: 0 } },
  before: { timestamp_value: { seconds: -86_400, nanos: 1 } },
  text: { string_value: "Grüezi, 世界 🎉" },
  empty: { string_value: "" },
  blob: { bytes_value: new Uint8Array([0, 1, 254, 255]) },
  ref: { reference_value: "projects/p/databases/(default)/documents/orgs/o1" },
  where: { geo_point_value: { latitude: 46.2, longitude: -6.15 } },
  origin: { geo_point_value: { latitude: 0, longitude: 0 } },
  list: {
    array_value: { values: [{ string_value: "a" }, { null_value: 0 }, { array_value: { values: [] } }] },
  },
  nested: {
    map_value: {
      fields: {
        "dotted.key": { integer_value: 1 },
        "": { string_value: "empty key" },
        deeper: { map_value: { fields: { flag: { boolean_value: true } } } },
        none: { map_value: { fields: {} } },
      },
    },
  },
};

test("when fields are packed and unpacked, then every value type comes back exactly", () => {
  const unpacked = unpackFields(packFields(FIELDS));
  expect(unpacked).toEqual(FIELDS);
  expect(Object.is((unpacked.negativeZero as { double_value: number }).double_value, -0)).toBe(true);
  expect(unpackFields(packFields({}))).toEqual({});
});

test("when fields are packed, then the bytes are the protobuf MapValue Firestore's protocol classes read", () => {
  const decoded = fieldsFromProto(MapValue.deserializeBinary(packFields(FIELDS)).fields);
  expect(decoded).toEqual(FIELDS);
});

test("when a query's or a get's response is encoded from packed fields, then the protocol classes read the same document", () => {
  const document = {
    name: "projects/p/databases/(default)/documents/orgs/o1",
    packed: packFields(FIELDS),
    createTime: { seconds: 1_700_000_000, nanos: 1000 },
    updateTime: { seconds: 1_700_000_001, nanos: 0 },
  };
  const readTime = { seconds: 1_700_000_002, nanos: 3000 };
  const transaction = new Uint8Array([7, 8, 9]);
  const query = RunQueryResponse.deserializeBinary(runQueryResponse({ document, readTime, transaction }));
  expect(query.document.name).toBe(document.name);
  expect(fieldsFromProto(query.document.fields)).toEqual(FIELDS);
  expect(query.document.create_time.toObject()).toEqual({ seconds: 1_700_000_000, nanos: 1000 });
  expect(query.document.update_time.toObject()).toEqual({ seconds: 1_700_000_001, nanos: 0 });
  expect(query.read_time.toObject()).toEqual(readTime);
  expect([...query.transaction]).toEqual([7, 8, 9]);
  expect(query.done).toBe(false);
  const done = RunQueryResponse.deserializeBinary(runQueryResponse({ readTime, done: true }));
  expect({ done: done.done, hasDocument: done.has_document }).toEqual({ done: true, hasDocument: false });

  const found = BatchGetDocumentsResponse.deserializeBinary(batchGetResponse({ found: document, readTime }));
  expect(fieldsFromProto(found.found.fields)).toEqual(FIELDS);
  expect(found.has_missing).toBe(false);
  const missing = BatchGetDocumentsResponse.deserializeBinary(
    batchGetResponse({ missing: document.name, readTime, transaction }),
  );
  expect({ missing: missing.missing, found: missing.has_found }).toEqual({
    missing: document.name,
    found: false,
  });
  expect([...missing.transaction]).toEqual([7, 8, 9]);
});
