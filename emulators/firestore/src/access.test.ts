import { createRequire } from "node:module";
import { createServer } from "node:net";

import {
  ListenRequest,
  ListenResponse,
  WriteRequest,
  type WriteResponse,
} from "@firestore-emulator/proto/dist/google/firestore/v1/firestore";
import {
  credentials,
  makeGenericClientConstructor,
  Metadata,
  status,
  type Client,
  type ClientDuplexStream,
  type MethodDefinition,
  type ServiceError,
} from "@grpc/grpc-js";
import { deleteApp, initializeApp, type App } from "firebase-admin/app";
import { getFirestore } from "firebase-admin/firestore";

import { isAdmin, PERMISSION_DENIED_MESSAGE } from "./access";
import { NodeFirestoreEmulator } from "./node-emulator";
import { firestoreServiceDefinition } from "./service";

const DATABASE = "projects/demo-alpvault/databases/(default)";
const DEADLINE_MS = 5_000;

/** An ID token of an ordinary user as the Auth emulator issues them (unsigned). */
const USER_TOKEN = [
  { alg: "none", typ: "JWT" },
  { iss: "https://securetoken.google.com/demo-alpvault", aud: "demo-alpvault", sub: "u1", user_id: "u1" },
]
  .map((part) => Buffer.from(JSON.stringify(part)).toString("base64url"))
  .concat("")
  .join(".");

const NON_ADMIN: [string, string[]][] = [
  ["no authorization", []],
  ["a garbage bearer token", ["Bearer garbage"]],
  ["a user's ID token", [`Bearer ${USER_TOKEN}`]],
  ["the admin token without the Bearer scheme", ["owner"]],
];

function metadata(values: string[]): Metadata {
  const result = new Metadata();
  for (const value of values) result.add("authorization", value);
  return result;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

type Method = MethodDefinition<unknown, unknown>;

/**
 * The generated protocol classes read packed repeated integers (ListenResponse.target_change.target_ids)
 * with `readPackedInt32`, which google-protobuf 4 no longer has; the emulator never decodes a
 * ListenResponse, only this test's client does, so its reader supplies the method.
 */
interface Reader {
  readPackableInt32Into(into: number[]): void;
}
const { BinaryReader } = createRequire(__filename)("google-protobuf") as {
  BinaryReader: new (bytes: Uint8Array) => Reader;
};
class ListenResponseReader extends BinaryReader {
  readPackedInt32(): number[] {
    const values: number[] = [];
    this.readPackableInt32Into(values);
    return values;
  }
}
const testClientDefinition = {
  ...firestoreServiceDefinition,
  Listen: {
    ...(firestoreServiceDefinition as Record<string, Method>).Listen!,
    responseDeserialize: (bytes: Buffer) =>
      ListenResponse.deserialize(new ListenResponseReader(bytes) as never),
  },
};
type RawClient = Client & Record<string, (...args: unknown[]) => unknown>;

let emulator: NodeFirestoreEmulator;
let client: RawClient;
let admin: App;
let previousHost: string | undefined;

beforeAll(async () => {
  const port = await freePort();
  emulator = new NodeFirestoreEmulator({ host: "127.0.0.1", port });
  await emulator.start();
  const Firestore = makeGenericClientConstructor(testClientDefinition, "Firestore");
  client = new Firestore(`127.0.0.1:${port}`, credentials.createInsecure()) as RawClient;
  previousHost = process.env.FIRESTORE_EMULATOR_HOST;
  process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
  admin = initializeApp({ projectId: "demo-alpvault" }, `access-${port}`);
});

afterAll(async () => {
  client.close();
  await deleteApp(admin);
  await emulator.stop();
  if (previousHost === undefined) delete process.env.FIRESTORE_EMULATOR_HOST;
  else process.env.FIRESTORE_EMULATOR_HOST = previousHost;
});

const deadline = () => ({ deadline: Date.now() + DEADLINE_MS });

/** Calls `name` with an empty request and resolves with the status it ends with (0 for OK). */
function callStatus(name: string, values: string[]): Promise<{ code: number; details: string }> {
  const method = (firestoreServiceDefinition as Record<string, Method>)[name]!;
  const request = method.requestDeserialize(Buffer.alloc(0));
  return new Promise((resolve) => {
    const done = (error: ServiceError | null) =>
      resolve(error ? { code: error.code, details: error.details } : { code: status.OK, details: "" });
    if (!method.requestStream && !method.responseStream) {
      client[name]!(request, metadata(values), deadline(), done);
      return;
    }
    const call = (
      method.requestStream
        ? client[name]!(metadata(values), deadline())
        : client[name]!(request, metadata(values), deadline())
    ) as ClientDuplexStream<unknown, unknown>;
    call.on("data", () => undefined);
    call.on("error", done);
    call.on("end", () => done(null));
    if (method.requestStream) call.end();
  });
}

function open<Req, Res>(name: "Listen" | "Write", values: string[]): ClientDuplexStream<Req, Res> {
  return client[name]!(metadata(values), deadline()) as ClientDuplexStream<Req, Res>;
}

function next<Req, T>(call: ClientDuplexStream<Req, T>): Promise<T> {
  return new Promise((resolve, reject) => {
    call.once("data", resolve);
    call.once("error", reject);
  });
}

const UNARY_AND_SERVER_STREAMING = Object.entries(firestoreServiceDefinition)
  .filter(([name]) => name !== "Listen" && name !== "Write")
  .map(([name]) => name);

test("when the authorization is exactly one `Bearer owner`, then the caller is the admin", () => {
  expect(isAdmin(metadata(["Bearer owner"]))).toBe(true);
  expect(isAdmin(metadata(["bearer owner"]))).toBe(true);
  for (const [, values] of NON_ADMIN) expect(isAdmin(metadata(values))).toBe(false);
  expect(isAdmin(metadata(["Bearer Owner"]))).toBe(false);
  expect(isAdmin(metadata(["Bearer owner extra"]))).toBe(false);
  // (HTTP/2 clients cannot send two authorization values; the check refuses them anyway.)
  expect(isAdmin(metadata(["Bearer owner", "Bearer garbage"]))).toBe(false);
});

describe.each(NON_ADMIN)("with %s", (_label, values) => {
  test.each(UNARY_AND_SERVER_STREAMING)(
    "when %s is called, then it is refused with PERMISSION_DENIED",
    async (name) => {
      expect(await callStatus(name, values)).toEqual({
        code: status.PERMISSION_DENIED,
        details: PERMISSION_DENIED_MESSAGE,
      });
    },
  );

  test("when a Listen target is added, then the target is removed with PERMISSION_DENIED as its cause", async () => {
    const call = open<ListenRequest, ListenResponse>("Listen", values);
    const response = next(call);
    call.write(
      ListenRequest.fromObject({
        database: DATABASE,
        add_target: { target_id: 4, documents: { documents: [`${DATABASE}/documents/orgs/o1`] } },
      }),
    );
    const change = (await response).target_change;
    expect(change.target_change_type).toBe(2); // REMOVE
    expect(change.target_ids).toEqual([4]);
    expect(change.cause.code).toBe(status.PERMISSION_DENIED);
    expect(change.cause.message).toBe(PERMISSION_DENIED_MESSAGE);
    call.end();
  });

  test("when writes are sent on the Write stream, then the handshake is answered and the writes are refused with PERMISSION_DENIED", async () => {
    const path = `planted/${Math.random().toString(36).slice(2)}`;
    const call = open<WriteRequest, WriteResponse>("Write", values);
    const handshake = next(call);
    call.write(WriteRequest.fromObject({ database: DATABASE }));
    const { stream_token, write_results } = await handshake;
    expect(stream_token.length).toBeGreaterThan(0);
    expect(write_results).toEqual([]);

    const refused = next(call).then(
      () => "answered",
      (error: ServiceError) => ({ code: error.code, details: error.details }),
    );
    call.write(
      WriteRequest.fromObject({
        stream_token,
        writes: [
          {
            update: {
              name: `${DATABASE}/documents/${path}`,
              fields: { by: { string_value: "attacker" } },
            },
          },
        ],
      }),
    );
    expect(await refused).toEqual({ code: status.PERMISSION_DENIED, details: PERMISSION_DENIED_MESSAGE });
    expect((await getFirestore(admin).doc(path).get()).exists).toBe(false);
  });
});

test("when the admin (firebase-admin, which sends `Bearer owner`) writes and reads, then it is served", async () => {
  const db = getFirestore(admin);
  await db.doc("orgs/admin").set({ ok: true });
  expect((await db.doc("orgs/admin").get()).get("ok")).toBe(true);
  expect((await db.collection("orgs").count().get()).data().count).toBeGreaterThan(0);
});

test("when the admin sends the same empty Commit a non-admin is refused, then it succeeds", async () => {
  expect(await callStatus("Commit", ["Bearer owner"])).toEqual({ code: status.OK, details: "" });
  expect((await callStatus("Commit", ["Bearer garbage"])).code).toBe(status.PERMISSION_DENIED);
});

test("when the admin calls an RPC the emulator does not implement, then it gets UNIMPLEMENTED", async () => {
  for (const name of ["GetDocument", "Listen", "Write"]) {
    expect((await callStatus(name, ["Bearer owner"])).code).toBe(status.UNIMPLEMENTED);
  }
});
