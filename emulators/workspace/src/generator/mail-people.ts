/**
 * Who writes the generated mail and when: working-day times, message ids, the outside correspondents
 * (partners, suppliers, newsletters), the organisation's own people and their signatures.
 */
import { type ContentLanguage } from "./content";
import { Random } from "./random";
import type { Correspondent, PlannedUser } from "./types";
import { DAY_MS } from "./mail-build";

export function workTime(random: Random, from: number, to: number): number {
  const day = Math.floor((from + random.next() * (to - from)) / DAY_MS) * DAY_MS;
  const weekday = new Date(day).getUTCDay();
  const shifted =
    (weekday === 0 || weekday === 6) && random.chance(0.8) ? day + (weekday === 6 ? 2 : 1) * DAY_MS : day;
  const hour = random.chance(0.9) ? random.int(7, 17) : random.int(18, 22);
  const time = shifted + (hour - 1) * 3_600_000 + random.int(0, 3_599) * 1000;
  return Math.min(Math.max(time, from), to - 1000);
}

export function messageId(random: Random, from: Correspondent): string {
  if (from.internal) return `<CA${random.hex(24).toUpperCase()}@mail.gmail.com>`;
  return `<${random.hex(20)}.${random.int(100000, 999999)}@${from.email.split("@")[1] ?? "example.test"}>`;
}

export const EXTERNAL: ReadonlyArray<Correspondent & { newsletter?: boolean }> = [
  { name: "Hans Meier", email: "hans.meier@treuhand-meier.example", language: "de", internal: false },
  { name: "Sophie Dubois", email: "s.dubois@fiduciaire-leman.example", language: "fr", internal: false },
  { name: "Marco Rossi", email: "marco.rossi@studio-rossi.example", language: "it", internal: false },
  { name: "Flurina Bezzola", email: "flurina@hotel-engiadina.example", language: "rm", internal: false },
  { name: "Anna O'Brien", email: "anna.obrien@partner-cloud.example", language: "en", internal: false },
  { name: "Zürcher Kantonalbank (Test)", email: "service@bank-zh.example", language: "de", internal: false },
  { name: "SBB CFF FFS", email: "newsletter@sbb.example", language: "de", internal: false, newsletter: true },
  {
    name: "Alpvault Team",
    email: "news@alpvault.example",
    language: "en",
    internal: false,
    newsletter: true,
  },
  {
    name: "Coop Pronto",
    email: "info@coop-pronto.example",
    language: "de",
    internal: false,
    newsletter: true,
  },
  {
    name: "Migros Bank",
    email: "no-reply@migrosbank.example",
    language: "fr",
    internal: false,
    newsletter: true,
  },
];

export function correspondentOf(user: PlannedUser): Correspondent {
  return {
    name: `${user.givenName} ${user.familyName}`,
    email: user.email,
    language: user.language,
    internal: true,
  };
}

export interface Skeleton {
  order: number;
  date: number;
  seed: number;
  from: Correspondent;
  to: Correspondent[];
  cc: Correspondent[];
  subject: string;
  language: ContentLanguage;
  messageId: string;
  references: string[];
  outgoing: boolean;
  newsletter: boolean;
  first: boolean;
}

export function signatureOf(person: Correspondent, title: string | undefined, domain: string): string[] {
  return [
    "",
    "-- ",
    person.name,
    ...(title ? [title] : []),
    person.internal ? `Alpvault Demo AG · ${domain}` : "",
  ];
}

/** The bytes and labels of one skeleton message. */
