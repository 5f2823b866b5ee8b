/**
 * OAuth2 as Google runs it for a service account with domain-wide delegation: the emulator issues the
 * service account key, its token endpoint takes JWT bearer grants (RFC 7523) signed with that key, and
 * every API call checks the access token it handed out (401 invalid or expired, 403 missing scope).
 */
import { createVerify, generateKeyPairSync, randomBytes } from "node:crypto";
import type { DirectoryStore, DirectoryUser } from "./directory/store";
import { GoogleApiError, type RequestContext } from "./http";

export const SCOPES = {
  mail: "https://mail.google.com/",
  gmailReadonly: "https://www.googleapis.com/auth/gmail.readonly",
  gmailModify: "https://www.googleapis.com/auth/gmail.modify",
  gmailInsert: "https://www.googleapis.com/auth/gmail.insert",
  gmailLabels: "https://www.googleapis.com/auth/gmail.labels",
  gmailMetadata: "https://www.googleapis.com/auth/gmail.metadata",
  drive: "https://www.googleapis.com/auth/drive",
  driveReadonly: "https://www.googleapis.com/auth/drive.readonly",
  driveFile: "https://www.googleapis.com/auth/drive.file",
  driveMetadataReadonly: "https://www.googleapis.com/auth/drive.metadata.readonly",
  calendar: "https://www.googleapis.com/auth/calendar",
  calendarReadonly: "https://www.googleapis.com/auth/calendar.readonly",
  calendarEvents: "https://www.googleapis.com/auth/calendar.events",
  calendarEventsReadonly: "https://www.googleapis.com/auth/calendar.events.readonly",
  calendarCalendarList: "https://www.googleapis.com/auth/calendar.calendarlist",
  calendarCalendarListReadonly: "https://www.googleapis.com/auth/calendar.calendarlist.readonly",
  calendarCalendars: "https://www.googleapis.com/auth/calendar.calendars",
  calendarCalendarsReadonly: "https://www.googleapis.com/auth/calendar.calendars.readonly",
  calendarAcls: "https://www.googleapis.com/auth/calendar.acls",
  calendarAclsReadonly: "https://www.googleapis.com/auth/calendar.acls.readonly",
  directoryUser: "https://www.googleapis.com/auth/admin.directory.user",
  directoryUserReadonly: "https://www.googleapis.com/auth/admin.directory.user.readonly",
  marketplaceLicense: "https://www.googleapis.com/auth/appsmarketplace.license",
  contacts: "https://www.googleapis.com/auth/contacts",
  contactsReadonly: "https://www.googleapis.com/auth/contacts.readonly",
  contactsOtherReadonly: "https://www.googleapis.com/auth/contacts.other.readonly",
} as const;

/**
 * What an Alpvault installation grants by default: read and restore Gmail, Drive, Calendar and Contacts
 * (read-only scopes for backups, the full ones for restores), read the directory. An installation made
 * before Calendar and Contacts were asked for holds only `GMAIL_AND_DRIVE_SCOPES`.
 */
export const GMAIL_AND_DRIVE_SCOPES: string[] = [
  SCOPES.gmailReadonly,
  SCOPES.gmailModify,
  SCOPES.gmailInsert,
  SCOPES.gmailLabels,
  SCOPES.drive,
  SCOPES.directoryUserReadonly,
  SCOPES.marketplaceLicense,
];
export const DEFAULT_GRANTED_SCOPES: string[] = [
  ...GMAIL_AND_DRIVE_SCOPES,
  SCOPES.calendarReadonly,
  SCOPES.calendarAclsReadonly,
  SCOPES.calendar,
  SCOPES.contactsReadonly,
  SCOPES.contactsOtherReadonly,
  SCOPES.contacts,
];

/** The JSON key file Google hands out for a service account (the fields the client libraries read). */
export interface ServiceAccountKey {
  type: "service_account";
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  auth_uri: string;
  token_uri: string;
}

export interface AccessTokenInfo {
  token: string;
  clientEmail: string;
  /** The impersonated user's id (domain-wide delegation), absent for the service account itself. */
  userId?: string;
  scopes: string[];
  expiresAt: number;
}

/** JWT audiences Google's token endpoint accepts (current and the older v4 endpoint gtoken used). */
const ACCEPTED_AUDIENCES = new Set([
  "https://oauth2.googleapis.com/token",
  "https://www.googleapis.com/oauth2/v4/token",
  "https://accounts.google.com/o/oauth2/token",
]);
const TOKEN_LIFETIME_SECONDS = 3599;
const MAX_ASSERTION_LIFETIME_SECONDS = 3600;
const CLOCK_SKEW_SECONDS = 300;

class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export interface TokenResponse {
  status: number;
  body: Record<string, unknown>;
}

function base64urlJson(part: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  if (typeof parsed !== "object" || parsed === null) throw new Error("not an object");
  return parsed as Record<string, unknown>;
}

/** A service account's RSA key pair, in PEM. */
export interface ServiceAccountKeyPair {
  privateKey: string;
  publicKey: string;
}

/**
 * A new RSA key pair for the service account: 2048 bits as Google's keys have (0.1–0.5 s of CPU to make),
 * or fewer for tests, whose keys sign nothing outside the emulator (1,024 bits take about 10 ms).
 */
export function newServiceAccountKeyPair(modulusLength = 2048): ServiceAccountKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength });
  return {
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

export class OAuthServer {
  readonly serviceAccount: ServiceAccountKey;
  private readonly publicKeyPem: string;
  private readonly tokens = new Map<string, AccessTokenInfo>();

  constructor(
    private readonly directory: DirectoryStore,
    options: { projectId: string; tokenUri: string; keyPair?: ServiceAccountKeyPair },
  ) {
    const { privateKey, publicKey } = options.keyPair ?? newServiceAccountKeyPair();
    this.publicKeyPem = publicKey;
    this.serviceAccount = {
      type: "service_account",
      project_id: options.projectId,
      private_key_id: randomBytes(20).toString("hex"),
      private_key: privateKey,
      client_email: `alpvault-backup@${options.projectId}.iam.gserviceaccount.com`,
      client_id: "104857600000000000001",
      auth_uri: "https://accounts.google.com/o/oauth2/auth",
      token_uri: options.tokenUri,
    };
  }

  /** POST /token (form-encoded). Answers what Google's token endpoint answers, errors included. */
  exchange(form: URLSearchParams): TokenResponse {
    try {
      const grantType = form.get("grant_type");
      if (grantType !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
        throw new OAuthError(400, "unsupported_grant_type", `Invalid grant_type: ${grantType ?? ""}`);
      }
      const info = this.verifyAssertion(form.get("assertion") ?? "");
      this.tokens.set(info.token, info);
      return {
        status: 200,
        body: { access_token: info.token, expires_in: TOKEN_LIFETIME_SECONDS, token_type: "Bearer" },
      };
    } catch (error) {
      if (error instanceof OAuthError) {
        return { status: error.status, body: { error: error.error, error_description: error.description } };
      }
      throw error;
    }
  }

  private verifyAssertion(assertion: string): AccessTokenInfo {
    const parts = assertion.split(".");
    if (parts.length !== 3) throw new OAuthError(400, "invalid_grant", "Invalid JWT Signature.");
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    let header: Record<string, unknown>;
    let claims: Record<string, unknown>;
    try {
      header = base64urlJson(headerPart);
      claims = base64urlJson(payloadPart);
    } catch {
      throw new OAuthError(400, "invalid_grant", "Invalid JWT Signature.");
    }
    if (header.alg !== "RS256") throw new OAuthError(400, "invalid_grant", "Invalid JWT Signature.");
    const verifier = createVerify("RSA-SHA256");
    verifier.update(`${headerPart}.${payloadPart}`);
    if (!verifier.verify(this.publicKeyPem, Buffer.from(signaturePart, "base64url"))) {
      throw new OAuthError(400, "invalid_grant", "Invalid JWT Signature.");
    }
    if (claims.iss !== this.serviceAccount.client_email) {
      throw new OAuthError(401, "invalid_client", "The OAuth client was not found.");
    }
    if (typeof claims.aud !== "string" || !ACCEPTED_AUDIENCES.has(claims.aud)) {
      throw new OAuthError(400, "invalid_grant", "Invalid JWT: Failed audience check.");
    }
    const now = Math.floor(Date.now() / 1000);
    const iat = Number(claims.iat);
    const exp = Number(claims.exp);
    if (
      !Number.isFinite(iat) ||
      !Number.isFinite(exp) ||
      exp <= now - CLOCK_SKEW_SECONDS ||
      iat > now + CLOCK_SKEW_SECONDS ||
      exp - iat > MAX_ASSERTION_LIFETIME_SECONDS
    ) {
      throw new OAuthError(
        400,
        "invalid_grant",
        "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.",
      );
    }
    const scopes = typeof claims.scope === "string" ? claims.scope.split(/\s+/).filter(Boolean) : [];
    if (scopes.length === 0) {
      throw new OAuthError(400, "invalid_scope", "Invalid OAuth scope or ID token audience provided.");
    }
    let user: DirectoryUser | undefined;
    if (typeof claims.sub === "string" && claims.sub !== this.serviceAccount.client_email) {
      user = this.delegate(claims.sub, scopes);
    }
    return {
      token: `ya29.emu-${randomBytes(24).toString("base64url")}`,
      clientEmail: this.serviceAccount.client_email,
      userId: user?.id,
      scopes,
      expiresAt: Date.now() + TOKEN_LIFETIME_SECONDS * 1000,
    };
  }

  /** Domain-wide delegation: `sub` must be an active user of a domain that installed us with these scopes. */
  private delegate(subject: string, scopes: string[]): DirectoryUser {
    const user = this.directory.user(subject);
    if (!user || user.primaryEmail !== subject.toLowerCase()) {
      const customer = this.directory.customerOfEmail(subject);
      if (!customer || customer.grantedScopes.length === 0) throw unauthorizedClient();
      throw new OAuthError(400, "invalid_grant", "Invalid email or User ID");
    }
    const customer = this.directory.customer(user.customerId);
    if (!customer || !scopes.every((scope) => customer.grantedScopes.includes(scope))) {
      throw unauthorizedClient();
    }
    if (user.suspended) throw new OAuthError(400, "invalid_grant", "Invalid email or User ID");
    return user;
  }

  /**
   * Checks the bearer token of an API call: 401 when missing, unknown or expired (or when delegation was
   * withdrawn since: uninstalling the app revokes its tokens), 403 when none of `anyOfScopes` was granted.
   */
  authorize(context: RequestContext, anyOfScopes: readonly string[]): AccessTokenInfo {
    const header = context.request.headers.authorization ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const info = match ? this.tokens.get(match[1] as string) : undefined;
    if (!info || info.expiresAt <= Date.now() || !this.stillDelegated(info)) {
      if (info) this.tokens.delete(info.token);
      throw invalidCredentials();
    }
    if (!anyOfScopes.some((scope) => info.scopes.includes(scope))) throw insufficientScopes();
    return info;
  }

  private stillDelegated(info: AccessTokenInfo): boolean {
    if (!info.userId) return true;
    const user = this.directory.user(info.userId);
    if (!user || user.suspended) return false;
    const customer = this.directory.customer(user.customerId);
    return !!customer && info.scopes.every((scope) => customer.grantedScopes.includes(scope));
  }

  /** Drops every token of a user (deleted, suspended) or of everyone (uninstall). */
  revoke(predicate: (info: AccessTokenInfo) => boolean): void {
    for (const [token, info] of this.tokens) if (predicate(info)) this.tokens.delete(token);
  }
}

function unauthorizedClient(): OAuthError {
  return new OAuthError(
    401,
    "unauthorized_client",
    "Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested.",
  );
}

export function invalidCredentials(): GoogleApiError {
  return new GoogleApiError(
    401,
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
    "authError",
    {
      headers: { "www-authenticate": 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
      extra: { location: "Authorization", locationType: "header" },
    },
  );
}

export function insufficientScopes(): GoogleApiError {
  return new GoogleApiError(
    403,
    "Request had insufficient authentication scopes.",
    "insufficientPermissions",
    {
      headers: {
        "www-authenticate": 'Bearer realm="https://accounts.google.com/", error="insufficient_scope"',
      },
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
          domain: "googleapis.com",
        },
      ],
    },
  );
}
