/** gRPC handler wrappers: errors become Firestore statuses. */
import { Metadata } from "@grpc/grpc-js";
import type { sendUnaryData, ServerUnaryCall, ServerWritableStream } from "@grpc/grpc-js";

import { Code, FirestoreError } from "./values";

export function toStatus(error: unknown): { code: number; details: string } {
  if (error instanceof FirestoreError) return { code: error.code, details: error.message };
  console.error("firestore emulator: unexpected error", error);
  return { code: Code.INTERNAL, details: error instanceof Error ? error.message : String(error) };
}

export function unary<Req, Res>(handler: (request: Req) => Promise<Res> | Res) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    Promise.resolve()
      .then(() => handler(call.request))
      .then(
        (response) => callback(null, response),
        (error) => callback(toStatus(error), null),
      );
  };
}

export function streaming<Req, Res>(
  handler: (request: Req, write: (response: Res) => void) => Promise<void> | void,
) {
  return (call: ServerWritableStream<Req, Res>) => {
    Promise.resolve()
      .then(() => handler(call.request, (response) => call.write(response)))
      .then(
        () => call.end(),
        (error) => {
          // Headers first, as Firestore sends them: without, the Node SDK waits seconds before it reports
          // a status that ends a stream without headers.
          call.sendMetadata(new Metadata());
          call.emit("error", toStatus(error));
        },
      );
  };
}
