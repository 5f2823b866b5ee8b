/**
 * The official Cloud KMS client (`@google-cloud/kms`) pointed at the emulator: REST transport
 * (`fallback: true`) over plain HTTP, with an auth client that adds no credentials (the emulator needs
 * none and nothing may reach Google's token service).
 */
import { KeyManagementServiceClient } from "@google-cloud/kms";

type ClientOptions = NonNullable<ConstructorParameters<typeof KeyManagementServiceClient>[0]>;

/**
 * What gax's REST transport needs of an auth client: headers to add (none) and a fetch. Requests go out
 * with the runtime's fetch, unchanged.
 */
export function anonymousAuth(): NonNullable<ClientOptions["authClient"]> {
  const auth = {
    getRequestHeaders: () => Promise.resolve(new Headers()),
    fetch: (url: string | URL, init: RequestInit & { responseType?: string; agent?: unknown } = {}) => {
      const { method, headers, body, signal } = init;
      return fetch(url, { method, headers, body, signal });
    },
  };
  return auth as unknown as NonNullable<ClientOptions["authClient"]>;
}

/** `hostPort` is `127.0.0.1:8091` (what `KMS_EMULATOR_HOST` holds) or a `http://` URL. */
export function emulatorKmsClient(hostPort: string): KeyManagementServiceClient {
  const url = new URL(hostPort.includes("://") ? hostPort : `http://${hostPort}`);
  return new KeyManagementServiceClient({
    fallback: true,
    protocol: "http",
    apiEndpoint: url.hostname,
    port: Number(url.port),
    authClient: anonymousAuth(),
  } as ClientOptions);
}
