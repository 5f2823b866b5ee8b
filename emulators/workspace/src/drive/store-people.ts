/**
 * The people the Drive store knows: customers' users (from the directory the routes attach), people outside
 * every customer who own and share files, and the domains whose administrators turned Drive apps off.
 */
import {
  type DrivePeople,
  type DrivePerson,
  type DriveSnapshot,
  type StoredPermission,
  digits,
} from "./store-model";

export class DrivePeopleBook {
  private directory: DrivePeople = { byId: () => undefined, byEmail: () => undefined };
  private externalPeople = new Map<string, DrivePerson>();
  private appsDisabled = new Set<string>();

  /** Lets the store resolve users (emails, names, domains); the routes attach the directory. */
  attach(people: DrivePeople): void {
    this.directory = people;
  }

  /** A customer's user by Directory id (never an outsider). */
  user(userId: string): DrivePerson | undefined {
    return this.directory.byId(userId);
  }

  person(userId: string): DrivePerson | undefined {
    return this.directory.byId(userId) ?? this.externalPeople.get(userId);
  }

  personByEmail(email: string): DrivePerson | undefined {
    const lower = email.toLowerCase();
    return (
      this.directory.byEmail(email) ??
      [...this.externalPeople.values()].find((person) => person.email === lower)
    );
  }

  /** A person outside every customer (a Gmail account, a partner) who can own and share files. */
  addExternalPerson(input: { email: string; displayName?: string }): DrivePerson {
    const email = input.email.toLowerCase();
    const existing = [...this.externalPeople.values()].find((person) => person.email === email);
    if (existing) return existing;
    if (this.directory.byEmail(email)) throw new Error(`${email} is a user of a customer, not an outsider`);
    const person: DrivePerson = {
      id: digits(`external:${email}`, 21).replace(/^0/, "1"),
      email,
      displayName: input.displayName ?? email.split("@")[0] ?? email,
      domain: email.split("@")[1] ?? "",
      customerId: "",
    };
    this.externalPeople.set(person.id, person);
    return person;
  }

  /** Drive apps turned off for a domain by its administrators (Google answers 403 `domainPolicy`). */
  setDriveAppsDisabled(domain: string, disabled: boolean): void {
    if (disabled) this.appsDisabled.add(domain.toLowerCase());
    else this.appsDisabled.delete(domain.toLowerCase());
  }

  driveAppsDisabled(domain: string): boolean {
    return this.appsDisabled.has(domain.toLowerCase());
  }

  /** Whether a permission (on a file or a shared drive) reaches the viewer. */
  permissionMatches(permission: StoredPermission, viewer: DrivePerson): boolean {
    if (permission.type === "anyone") return true;
    if (permission.type === "domain") return permission.domain === viewer.domain;
    if (!permission.emailAddress) return false;
    if (permission.emailAddress === viewer.email) return true;
    return this.directory.byEmail(permission.emailAddress)?.id === viewer.id;
  }

  /** The snapshot's people fields (each only when not empty). */
  snapshot(): Pick<DriveSnapshot, "externalPeople" | "driveAppsDisabled"> {
    return {
      ...(this.externalPeople.size > 0
        ? { externalPeople: [...this.externalPeople.values()].map((person) => ({ ...person })) }
        : {}),
      ...(this.appsDisabled.size > 0 ? { driveAppsDisabled: [...this.appsDisabled] } : {}),
    };
  }

  restore(snapshot: DriveSnapshot): void {
    this.externalPeople = new Map(
      (snapshot.externalPeople ?? []).map((person) => [person.id, { ...person }]),
    );
    this.appsDisabled = new Set(snapshot.driveAppsDisabled ?? []);
  }
}
