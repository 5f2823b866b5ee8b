/**
 * Who may call the emulator. Alpvault deploys deny-all security rules (`firestore.rules`): no client
 * reads or writes Firestore, only the Admin SDK does, and Admin SDK calls are not subject to rules. We do
 * not evaluate rules; we let through the caller the official emulator treats as the admin, the one sending
 * `authorization: Bearer owner` (what firebase-admin / @google-cloud/firestore send to an emulator), and
 * refuse everyone else as Firestore refuses a client under deny-all rules: PERMISSION_DENIED,
 * "Missing or insufficient permissions." (the client SDK's FirestoreError code `permission-denied`).
 *
 * `adminOnly()` wraps a whole service implementation, so every RPC is covered, including the ones we do
 * not implement. The client SDK reads through the Listen stream and writes through the Write stream; on
 * those a refusal takes the form Firestore gives it, so the client reports it instead of retrying: each
 * listen target is removed with the error as its cause, and the Write stream completes its handshake and
 * then closes with the error on the first write.
 */
import { randomBytes } from "node:crypto";

import {
  ListenResponse,
  TargetChangeTargetChangeType,
  WriteResponse,
  type ListenRequest,
  type WriteRequest,
} from "@firestore-emulator/proto/dist/google/firestore/v1/firestore";
import {
  status,
  type handleBidiStreamingCall,
  type handleServerStreamingCall,
  type handleUnaryCall,
  type Metadata,
  type MethodDefinition,
  type ServerDuplexStream,
  type ServerErrorResponse,
  type ServiceDefinition,
  type StatusObject,
  type UntypedHandleCall,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";

/** The token the official emulator treats as the admin (rules bypassed). */
const ADMIN_TOKEN = "owner";
export const PERMISSION_DENIED_MESSAGE = "Missing or insufficient permissions.";

const permissionDenied: Partial<StatusObject> = {
  code: status.PERMISSION_DENIED,
  details: PERMISSION_DENIED_MESSAGE,
};

/** True when the call carries exactly one authorization value, `Bearer owner`. */
export function isAdmin(metadata: Metadata): boolean {
  const values = metadata.get("authorization");
  if (values.length !== 1 || typeof values[0] !== "string") return false;
  const [scheme, token, ...rest] = values[0].trim().split(/\s+/);
  return rest.length === 0 && scheme?.toLowerCase() === "bearer" && token === ADMIN_TOKEN;
}

type AnyCall = Parameters<handleServerStreamingCall<unknown, unknown>>[0] &
  Parameters<handleBidiStreamingCall<unknown, unknown>>[0];
type AnyCallback = Parameters<handleUnaryCall<unknown, unknown>>[1];

/** Ends a call with an error status, whatever its kind. */
function fail(
  method: MethodDefinition<unknown, unknown>,
  call: AnyCall,
  callback: AnyCallback | undefined,
  error: Partial<StatusObject>,
) {
  if (!method.responseStream) callback?.(error as ServerErrorResponse, null);
  else call.emit("error", error);
}

/** Listen: every target the client adds is removed at once with PERMISSION_DENIED as its cause. */
function refuseListen(call: ServerDuplexStream<ListenRequest, ListenResponse>): void {
  call.on("data", (request: ListenRequest) => {
    if (!request.has_add_target) return;
    call.write(
      ListenResponse.fromObject({
        target_change: {
          target_change_type: TargetChangeTargetChangeType.REMOVE,
          target_ids: [request.add_target.target_id],
          cause: { code: status.PERMISSION_DENIED, message: PERMISSION_DENIED_MESSAGE },
        },
      }),
    );
  });
  call.on("end", () => call.end());
}

/** Write: the handshake is answered; the first request carrying writes closes the stream refused. */
function refuseWrite(call: ServerDuplexStream<WriteRequest, WriteResponse>): void {
  let handshakeDone = false;
  let closed = false;
  call.on("data", (request: WriteRequest) => {
    if (closed) return;
    if (request.writes.length > 0) {
      closed = true;
      call.emit("error", permissionDenied);
    } else if (!handshakeDone) {
      handshakeDone = true;
      call.write(
        WriteResponse.fromObject({
          stream_id: randomBytes(8).toString("hex"),
          stream_token: randomBytes(8),
        }),
      );
    }
  });
  call.on("end", () => {
    if (!closed) call.end();
  });
}

/**
 * The service implementation as the emulator serves it: admin calls reach `implementation` (or get
 * UNIMPLEMENTED for a method it lacks, as gRPC answers), every other call is refused.
 */
export function adminOnly(
  definition: ServiceDefinition,
  implementation: UntypedServiceImplementation,
): UntypedServiceImplementation {
  const guarded: UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(definition)) {
    const handler = implementation[name] as ((call: AnyCall, callback?: AnyCallback) => void) | undefined;
    guarded[name] = ((call: AnyCall, callback?: AnyCallback) => {
      if (isAdmin(call.metadata)) {
        if (handler) handler(call, callback);
        else
          fail(method, call, callback, {
            code: status.UNIMPLEMENTED,
            details: `The server does not implement the method ${method.path}`,
          });
      } else if (name === "Listen") {
        refuseListen(call as unknown as ServerDuplexStream<ListenRequest, ListenResponse>);
      } else if (name === "Write") {
        refuseWrite(call as unknown as ServerDuplexStream<WriteRequest, WriteResponse>);
      } else {
        fail(method, call, callback, permissionDenied);
      }
    }) as UntypedHandleCall;
  }
  return guarded;
}
