import { MapValue } from "@firestore-emulator/proto/dist/google/firestore/v1/document";

import { packFields, unpackFields } from "./codec";
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
