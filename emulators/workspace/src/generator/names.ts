/**
 * Swiss people for generated organisations: given and family names from the German, French, Italian and
 * Romansh speaking regions (with their accents), the demo organisation's fixed roster, and e-mail local
 * parts as Swiss companies write them (ä → ae, é → e).
 */
import type { Random } from "./random";

export type Language = "de" | "fr" | "it" | "rm";

export interface Person {
  givenName: string;
  familyName: string;
  language: Language;
}

export const GIVEN_NAMES: Record<Language, readonly string[]> = {
  de: [
    "Ueli",
    "Jürg",
    "Käthi",
    "Beat",
    "Reto",
    "Monika",
    "Lukas",
    "Seraina",
    "Andrea",
    "Dölf",
    "Verena",
    "Mäx",
    "Nadine",
    "Stefan",
    "Rösli",
    "Urs",
  ],
  fr: [
    "Léa",
    "Noémie",
    "Frédéric",
    "Amélie",
    "Jérôme",
    "Hélène",
    "Loïc",
    "Céline",
    "Gaël",
    "Mathilde",
    "Théo",
    "Éloïse",
  ],
  it: ["Giulia", "Matteo", "Chiara", "Niccolò", "Lucía", "Fabrizio", "Elisa", "Nicolò", "Aurora", "Tiziano"],
  rm: ["Gian", "Mengia", "Curdin", "Ladina", "Flurin", "Annatina", "Duri", "Chatrina", "Men", "Uorschla"],
};

export const FAMILY_NAMES: Record<Language, readonly string[]> = {
  de: [
    "Müller",
    "Känzig",
    "Schnyder",
    "Brunner",
    "Zürcher",
    "Bösch",
    "Häfliger",
    "Stäheli",
    "Gerber",
    "Lüthi",
    "Würgler",
    "Bühlmann",
  ],
  fr: [
    "Favre",
    "Rochat",
    "Délèze",
    "Perrenoud",
    "Chappuis",
    "Bétrisey",
    "Monnier",
    "Gaillard",
    "Crettenand",
    "Rossier",
  ],
  it: [
    "Bernasconi",
    "Colombo",
    "Pedrazzini",
    "Lurà",
    "Gianella",
    "Bernardoni",
    "Fontana",
    "Cattaneo",
    "Zanetti",
    "Sciolli",
  ],
  rm: [
    "Caduff",
    "Pult",
    "Cadonau",
    "Vieli",
    "Tscharner",
    "Casutt",
    "Derungs",
    "Candinas",
    "Bundi",
    "Cathomen",
  ],
};

/** ASCII local part as Swiss companies write it: `Jürg Känzig` → `juerg.kaenzig`. */
export function emailLocalPart(givenName: string, familyName: string): string {
  const fold = (text: string): string =>
    text
      .toLowerCase()
      .replace(/ä/g, "ae")
      .replace(/ö/g, "oe")
      .replace(/ü/g, "ue")
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
  return `${fold(givenName)}.${fold(familyName)}`;
}

export interface RosterEntry extends Person {
  /** Local part of the address (`admin`, `user`, `lea.favre`). */
  localPart: string;
  isAdmin: boolean;
  suspended: boolean;
  title: string;
}

/** The demo organisation's people; fixed for every seed so the README stays true. */
export const DEMO_ROSTER: readonly RosterEntry[] = [
  {
    localPart: "admin",
    givenName: "Ada",
    familyName: "Brunner",
    language: "de",
    isAdmin: true,
    suspended: false,
    title: "IT-Leiterin",
  },
  {
    localPart: "user",
    givenName: "Ueli",
    familyName: "Schnyder",
    language: "de",
    isAdmin: false,
    suspended: false,
    title: "Buchhalter",
  },
  {
    localPart: "lea.favre",
    givenName: "Léa",
    familyName: "Favre",
    language: "fr",
    isAdmin: false,
    suspended: false,
    title: "Responsable marketing",
  },
  {
    localPart: "giulia.bernasconi",
    givenName: "Giulia",
    familyName: "Bernasconi",
    language: "it",
    isAdmin: false,
    suspended: false,
    title: "Responsabile vendite",
  },
  {
    localPart: "juerg.kaenzig",
    givenName: "Jürg",
    familyName: "Känzig",
    language: "de",
    isAdmin: false,
    suspended: false,
    title: "Finanzchef",
  },
  {
    localPart: "mengia.pult",
    givenName: "Mengia",
    familyName: "Pult",
    language: "rm",
    isAdmin: false,
    suspended: false,
    title: "Project manager",
  },
  {
    localPart: "gian.caduff",
    givenName: "Gian",
    familyName: "Caduff",
    language: "rm",
    isAdmin: false,
    suspended: true,
    title: "Ex-collaboratur",
  },
  {
    localPart: "noemie.rochat",
    givenName: "Noémie",
    familyName: "Rochat",
    language: "fr",
    isAdmin: false,
    suspended: false,
    title: "Juriste",
  },
];

const TITLES: Record<Language, readonly string[]> = {
  de: ["Sachbearbeiterin", "Projektleiter", "Teamleiterin", "Entwickler", "Assistentin der Geschäftsleitung"],
  fr: ["Chef de projet", "Assistante de direction", "Développeur", "Comptable"],
  it: ["Capo progetto", "Consulente", "Sviluppatrice", "Contabile"],
  rm: ["Manader da project", "Collavuratura", "Consulent"],
};

/**
 * A roster of `count` people for a generated organisation: `admin@` (super admin), `user@` (the documented
 * non-admin), then people with distinct addresses; one suspended person when there are at least four.
 */
export function generateRoster(random: Random, count: number): RosterEntry[] {
  const first = DEMO_ROSTER.slice(0, Math.min(2, count));
  const roster: RosterEntry[] = first.map((entry) => ({ ...entry }));
  const used = new Set(roster.map((entry) => entry.localPart));
  const languages: Language[] = ["de", "de", "fr", "it", "rm"];
  let attempts = 0;
  while (roster.length < count) {
    const language = random.pick(languages);
    const givenName = random.pick(GIVEN_NAMES[language]);
    const familyName = random.pick(FAMILY_NAMES[language]);
    let localPart = emailLocalPart(givenName, familyName);
    attempts += 1;
    if (used.has(localPart)) {
      if (attempts < count * 4) continue;
      localPart = `${localPart}${roster.length}`;
    }
    used.add(localPart);
    roster.push({
      localPart,
      givenName,
      familyName,
      language,
      isAdmin: false,
      suspended: false,
      title: random.pick(TITLES[language]),
    });
  }
  const last = roster[roster.length - 1];
  if (count >= 4 && last) last.suspended = true;
  return roster;
}
