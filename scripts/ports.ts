/**
 * The local stack's fixed ports. Firebase emulator ports are read from firebase.json (its `emulators`
 * block is the source of truth); the others are ours.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { LOCAL_REGION_API_PORTS } from "../contracts/src/local";

export const ROOT = resolve(__dirname, "..");

interface FirebaseJson {
  emulators: Record<string, { host?: string; port?: number }>;
}

const firebaseJson = JSON.parse(readFileSync(resolve(ROOT, "firebase.json"), "utf8")) as FirebaseJson;

function firebasePort(name: string): number {
  const port = firebaseJson.emulators[name]?.port;
  if (typeof port !== "number") throw new Error(`firebase.json has no emulators.${name}.port`);
  return port;
}

export const HOST = "127.0.0.1";

export const PORTS = {
  hosting: firebasePort("hosting"),
  // The regional API sites (firebase.json hosting targets api-<region>), on the ports Hosting gives them.
  apiCh: LOCAL_REGION_API_PORTS.ch,
  apiEu: LOCAL_REGION_API_PORTS.eu,
  apiUs: LOCAL_REGION_API_PORTS.us,
  functions: firebasePort("functions"),
  auth: firebasePort("auth"),
  tasks: firebasePort("tasks"),
  hub: firebasePort("hub"),
  logging: firebasePort("logging"),
  firestore: firebasePort("firestore"),
  workspace: 8090,
  kms: 8091,
  storage: 8092,
  firestoreStats: 8093,
} as const;

export type Service = keyof typeof PORTS;

export const SERVICE_NAMES: Record<Service, string> = {
  hosting: "Hosting (web app and the global /v1 API)",
  apiCh: "Hosting (Switzerland's /v1 API)",
  apiEu: "Hosting (European Union's /v1 API)",
  apiUs: "Hosting (United States' /v1 API)",
  functions: "Functions emulator",
  auth: "Auth emulator",
  tasks: "Cloud Tasks emulator",
  hub: "Emulator hub",
  logging: "Emulator logging",
  firestore: "Firestore emulator",
  workspace: "Workspace emulator",
  kms: "Cloud KMS emulator",
  storage: "Cloud Storage emulator",
  firestoreStats: "Firestore emulator's read figures (HTTP)",
};

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const probe = createServer();
    probe.once("error", () => resolvePromise(false));
    probe.listen(port, HOST, () => probe.close(() => resolvePromise(true)));
  });
}

/** A port the system has free now (for a process of one's own, such as a bench's emulator). */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePromise(port));
    });
  });
}

/**
 * Fails with one clear message naming every busy port of `ports` (the stack's), instead of letting a
 * service hang or crash.
 */
export async function assertPortsFree(ports: Partial<Record<Service, number>> = PORTS): Promise<void> {
  const busy: string[] = [];
  for (const [service, port] of Object.entries(ports) as [Service, number][]) {
    if (!(await portIsFree(port))) busy.push(`  ${port}  ${SERVICE_NAMES[service]}`);
  }
  if (busy.length > 0) {
    throw new Error(
      `These ports of the local stack are already in use:\n${busy.join("\n")}\n` +
        "Another Alpvault stack (npm start or npm test) or another program is using them. Stop it " +
        "(find it with: ss -ltnp), then try again.",
    );
  }
}
