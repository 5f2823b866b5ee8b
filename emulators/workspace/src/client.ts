/**
 * Pointing Google's official Node clients at the emulator. API calls take `rootUrl`; token requests do
 * not: google-auth-library posts them to Google's fixed token URL. A request interceptor on the auth
 * client's transporter (a Gaxios instance) sends every Google host to the emulator instead.
 */
import { JWT } from "google-auth-library";

/** Rewrites a Google URL (token endpoint, API host) to the same path on the emulator. */
export function toEmulatorUrl(url: string, emulatorUrl: string): string {
  const parsed = new URL(url);
  if (!/(^|\.)googleapis\.com$|^accounts\.google\.com$/.test(parsed.hostname)) return url;
  const target = new URL(emulatorUrl);
  parsed.protocol = target.protocol;
  parsed.host = target.host;
  return parsed.toString();
}

export interface ServiceAccountCredentials {
  client_email: string;
  private_key: string;
}

/** A domain-wide-delegation JWT client whose token requests reach the emulator. */
export function emulatorJwt(
  emulatorUrl: string,
  key: ServiceAccountCredentials,
  options: { subject?: string; scopes: string[] },
): JWT {
  const jwt = new JWT({
    email: key.client_email,
    key: key.private_key,
    subject: options.subject,
    scopes: options.scopes,
    // Node's own fetch: gaxios would otherwise load node-fetch with a dynamic import, which jest's
    // CommonJS sandbox refuses.
    transporterOptions: { fetchImplementation: fetch },
  });
  jwt.transporter.interceptors.request.add({
    resolved: async (config) => {
      if (config.url) config.url = new URL(toEmulatorUrl(config.url.toString(), emulatorUrl));
      return config;
    },
  });
  return jwt;
}
