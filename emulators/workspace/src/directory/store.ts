/**
 * The Workspace directory the emulator holds: customers (one domain each), their users, and whether our
 * Workspace app is installed (Marketplace licence and the scopes its domain-wide delegation grants).
 */
import { createHash } from "node:crypto";

export type LicenseState = "ACTIVE" | "UNLICENSED";

export interface Customer {
  /** Google's customer id, e.g. `C03az79cb`. */
  id: string;
  domain: string;
  /** Marketplace licence of our app for this customer. */
  licenseState: LicenseState;
  /** Scopes granted to our service account's client id by domain-wide delegation (empty: not installed). */
  grantedScopes: string[];
  creationTime: string;
}

export interface DirectoryUser {
  /** Google's numeric user id (21 digits). */
  id: string;
  customerId: string;
  primaryEmail: string;
  givenName: string;
  familyName: string;
  isAdmin: boolean;
  isDelegatedAdmin: boolean;
  suspended: boolean;
  archived: boolean;
  creationTime: string;
  lastLoginTime: string;
  orgUnitPath: string;
  /**
   * Whether the user has Gmail: false for a Drive-only licence or an org unit with Gmail turned off. Their
   * token and Drive work; every Gmail API call answers 400 failedPrecondition "Mail service not enabled".
   */
  gmailEnabled: boolean;
  thumbnailPhotoUrl?: string;
  /** Addresses this user has had before a rename: Google keeps them as aliases. */
  aliases: string[];
}

export interface DirectorySnapshot {
  customers: Customer[];
  users: DirectoryUser[];
}

/** Deterministic ids, so a seeded organisation has the same ids on every machine. */
export function numericId(seed: string, digits = 21): string {
  const hex = createHash("sha256").update(seed).digest("hex");
  let out = "1";
  for (let index = 0; out.length < digits; index += 1) {
    out += String(parseInt(hex.slice(index * 2, index * 2 + 2), 16) % 10);
  }
  return out;
}

export function customerIdFor(domain: string): string {
  const hex = createHash("sha256").update(`customer:${domain}`).digest("hex");
  return `C0${hex.slice(0, 7)}`;
}

export class DirectoryStore {
  private readonly customers = new Map<string, Customer>();
  private readonly users = new Map<string, DirectoryUser>();

  addCustomer(input: {
    domain: string;
    installed?: boolean;
    scopes?: string[];
    creationTime?: string;
  }): Customer {
    const domain = input.domain.toLowerCase();
    const customer: Customer = {
      id: customerIdFor(domain),
      domain,
      licenseState: input.installed ? "ACTIVE" : "UNLICENSED",
      grantedScopes: input.installed ? [...(input.scopes ?? [])] : [],
      creationTime: input.creationTime ?? "2020-01-01T00:00:00.000Z",
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  customer(idOrDomain: string): Customer | undefined {
    const byId = this.customers.get(idOrDomain);
    if (byId) return byId;
    const domain = idOrDomain.toLowerCase();
    return [...this.customers.values()].find((customer) => customer.domain === domain);
  }

  customerOfEmail(email: string): Customer | undefined {
    const domain = email.toLowerCase().split("@")[1];
    return domain ? this.customer(domain) : undefined;
  }

  listCustomers(): Customer[] {
    return [...this.customers.values()];
  }

  addUser(input: {
    email: string;
    givenName: string;
    familyName: string;
    isAdmin?: boolean;
    suspended?: boolean;
    /** Default true; false: a user without Gmail. */
    gmailEnabled?: boolean;
    creationTime?: string;
  }): DirectoryUser {
    const email = input.email.toLowerCase();
    const customer = this.customerOfEmail(email);
    if (!customer) throw new Error(`No customer owns the domain of ${email}`);
    if (this.user(email)) throw new Error(`User ${email} already exists`);
    const user: DirectoryUser = {
      id: numericId(`user:${email}`),
      customerId: customer.id,
      primaryEmail: email,
      givenName: input.givenName,
      familyName: input.familyName,
      isAdmin: input.isAdmin ?? false,
      isDelegatedAdmin: false,
      suspended: input.suspended ?? false,
      archived: false,
      creationTime: input.creationTime ?? "2021-03-01T09:00:00.000Z",
      lastLoginTime: "2026-11-01T08:00:00.000Z",
      orgUnitPath: "/",
      gmailEnabled: input.gmailEnabled ?? true,
      aliases: [],
    };
    this.users.set(user.id, user);
    return user;
  }

  /** By id, primary email or a former address (alias), as Google resolves `userKey`. */
  user(key: string): DirectoryUser | undefined {
    const byId = this.users.get(key);
    if (byId) return byId;
    const email = key.toLowerCase();
    for (const user of this.users.values()) {
      if (user.primaryEmail === email || user.aliases.includes(email)) return user;
    }
    return undefined;
  }

  usersOf(customerId: string): DirectoryUser[] {
    return [...this.users.values()]
      .filter((user) => user.customerId === customerId)
      .sort((a, b) => a.primaryEmail.localeCompare(b.primaryEmail));
  }

  allUsers(): DirectoryUser[] {
    return [...this.users.values()];
  }

  rename(user: DirectoryUser, newEmail: string): void {
    const email = newEmail.toLowerCase();
    if (this.user(email)) throw new Error(`User ${email} already exists`);
    user.aliases.push(user.primaryEmail);
    user.primaryEmail = email;
  }

  deleteUser(user: DirectoryUser): void {
    this.users.delete(user.id);
  }

  snapshot(): DirectorySnapshot {
    return { customers: [...this.customers.values()], users: [...this.users.values()] };
  }

  restore(snapshot: DirectorySnapshot): void {
    this.customers.clear();
    this.users.clear();
    for (const customer of snapshot.customers) this.customers.set(customer.id, { ...customer });
    for (const user of snapshot.users) {
      // States saved before users could be without Gmail: everyone had it.
      this.users.set(user.id, {
        ...user,
        gmailEnabled: user.gmailEnabled ?? true,
        aliases: [...user.aliases],
      });
    }
  }
}
