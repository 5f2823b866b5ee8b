/**
 * What generated mail and files say: subjects, sentences and folder names in German, French, Italian,
 * Romansh and English, and deterministic file bytes (valid PNG and PDF files, JPEG-like photos, CSV, text,
 * calendar invitations) of a requested size.
 */
import { deflateSync, crc32 } from "node:zlib";
import type { Language } from "./names";
import type { Random } from "./random";

export type ContentLanguage = Language | "en";

export const SUBJECTS: Record<ContentLanguage, readonly string[]> = {
  de: [
    "Offerte für die Erneuerung der Server",
    "Protokoll der Sitzung vom Donnerstag",
    "Spesenabrechnung März",
    "Ferienplanung Sommer",
    "Rückfrage zur Rechnung Nr. 4711",
    "Einladung: Znüni mit dem Team",
    "Budget 2026 – erste Zahlen",
    "Änderungen am Vertrag Müller AG",
    "Kurze Frage zum Projektstand",
    "Weiterbildung Datenschutz (nDSG)",
    "Grüsse aus Zürich",
    "Lieferung verspätet – Entschuldigung",
  ],
  fr: [
    "Réunion de lancement du projet",
    "Facture n° 2026-118 à régler",
    "Déménagement des bureaux à Lausanne",
    "Compte rendu de la séance",
    "Votre demande de congé",
    "Présentation pour le client de Genève",
    "Mise à jour du règlement télétravail",
    "Question sur le budget marketing",
    "Apéro de fin d'année 🥂",
    "Rappel : échéance vendredi",
  ],
  it: [
    "Preventivo per il nuovo sito",
    "Verbale della riunione di lunedì",
    "Richiesta di ferie",
    "Fattura da verificare",
    "Aggiornamento sul progetto Lugano",
    "Cena aziendale: conferma la presenza",
    "Contratto firmato – grazie!",
    "Domanda sulle spese di viaggio",
  ],
  rm: [
    "Invitaziun a la sesida",
    "Protocol da la radunanza",
    "Dumonda davart il project",
    "Salids da Cuira",
    "Novas dal biro a Scuol",
    "Quint per il mais da fanadur",
  ],
  en: [
    "Quarterly review – slides attached",
    "Your invoice is ready",
    "Security alert for your account",
    "Weekly newsletter: backup best practices",
    "Contract renewal",
    "Meeting notes and next steps",
    "Welcome to the partner programme",
    "Shipping confirmation for order 20394",
  ],
};

const SENTENCES: Record<ContentLanguage, readonly string[]> = {
  de: [
    "Vielen Dank für deine Nachricht von gestern.",
    "Im Anhang findest du die überarbeitete Version.",
    "Könntest du bitte bis Freitag Rückmeldung geben?",
    "Die Zahlen für das dritte Quartal sehen erfreulich aus.",
    "Wir treffen uns um 10 Uhr im Sitzungszimmer «Säntis».",
    "Leider hat sich die Lieferung um zwei Wochen verzögert.",
    "Bitte beachte die neuen Weisungen zum Datenschutz.",
    "Das Budget muss noch von der Geschäftsleitung genehmigt werden.",
    "Ich bin ab Montag wieder im Büro in Zürich.",
    "Die Rechnung über CHF 1'250.– ist bereits bezahlt.",
    "Für Rückfragen stehe ich gerne zur Verfügung.",
    "Das Zügeln des Archivs ist für März geplant.",
  ],
  fr: [
    "Merci beaucoup pour ton retour rapide.",
    "Tu trouveras ci-joint la dernière version du document.",
    "Pourrais-tu me confirmer ta présence d'ici jeudi ?",
    "La séance aura lieu à Lausanne, salle « Léman ».",
    "Les chiffres du deuxième trimestre sont très encourageants.",
    "Nous devons encore valider le budget avec la direction.",
    "Je reste à disposition pour toute question.",
    "Le déménagement est prévu pour la fin du mois.",
    "Voici le résumé des décisions prises hier.",
    "Le montant de CHF 3'480.– sera versé la semaine prochaine.",
  ],
  it: [
    "Grazie mille per la tua risposta.",
    "In allegato trovi il documento aggiornato.",
    "Potresti confermare entro venerdì?",
    "La riunione si terrà a Lugano alle 14:00.",
    "I risultati del trimestre sono molto positivi.",
    "Il preventivo è già stato approvato dalla direzione.",
    "Resto a disposizione per qualsiasi domanda.",
    "Ci vediamo la settimana prossima a Bellinzona.",
  ],
  rm: [
    "Grazia fitg per tia brev.",
    "En l'agiunta chattas ti il document.",
    "Pos ti confermar fin venderdi?",
    "La sesida ha lieu a Cuira en la stanza gronda.",
    "Jau sun puspè en il biro glindesdi.",
    "Cun salids cordials da l'Engiadina.",
  ],
  en: [
    "Thanks for getting back to me so quickly.",
    "Please find the updated figures attached.",
    "Could you confirm by the end of the week?",
    "The meeting has been moved to Thursday afternoon.",
    "Let me know if anything is unclear.",
    "We are happy to extend the contract for another year.",
    "Your backup completed successfully last night.",
    "Click the button below to review the changes.",
  ],
};

const GREETINGS: Record<ContentLanguage, readonly string[]> = {
  de: ["Hoi {name}", "Liebe/r {name}", "Grüezi {name}", "Guten Tag {name}"],
  fr: ["Bonjour {name}", "Salut {name}", "Chère/Cher {name}"],
  it: ["Ciao {name}", "Buongiorno {name}", "Cara/Caro {name}"],
  rm: ["Allegra {name}", "Bun di {name}"],
  en: ["Hi {name}", "Dear {name}", "Hello {name}"],
};

const CLOSINGS: Record<ContentLanguage, readonly string[]> = {
  de: ["Liebe Grüsse", "Freundliche Grüsse", "Herzliche Grüsse", "En Guete und bis bald"],
  fr: ["Meilleures salutations", "Bien à toi", "Belle journée"],
  it: ["Cordiali saluti", "A presto", "Un caro saluto"],
  rm: ["Cordialmain", "Salids"],
  en: ["Best regards", "Kind regards", "Cheers"],
};

export const FOLDER_NAMES: Record<ContentLanguage, readonly string[]> = {
  de: [
    "Projekte",
    "Buchhaltung",
    "Verträge",
    "Präsentationen",
    "Fotos Betriebsausflug",
    "Archiv",
    "Offerten",
    "Personal",
  ],
  fr: ["Projets", "Comptabilité", "Contrats", "Présentations", "Photos", "Archives", "Clients Genève"],
  it: ["Progetti", "Contabilità", "Contratti", "Presentazioni", "Foto", "Archivio", "Clienti Ticino"],
  rm: ["Projects", "Contabilitad", "Contracts", "Fotografias", "Archiv"],
  en: ["Projects", "Finance", "Contracts", "Slides", "Photos", "Archive"],
};

export const DOCUMENT_TITLES: Record<ContentLanguage, readonly string[]> = {
  de: [
    "Protokoll Teamsitzung",
    "Offerte Webshop",
    "Jahresbericht",
    "Checkliste Onboarding",
    "Reisekosten",
    "Konzept Datensicherung",
  ],
  fr: [
    "Compte rendu",
    "Offre site web",
    "Rapport annuel",
    "Plan marketing",
    "Budget événement",
    "Procédure qualité",
  ],
  it: ["Verbale riunione", "Offerta sito", "Rapporto annuale", "Piano vendite", "Budget fiera"],
  rm: ["Protocol", "Offerta", "Rapport annual", "Plan da lavur"],
  en: ["Meeting notes", "Proposal", "Annual report", "Roadmap", "Budget"],
};

/** A language for content, roughly as mixed as a Swiss office's mail. */
export function contentLanguage(random: Random, preferred: Language): ContentLanguage {
  return random.weighted<ContentLanguage>([
    [preferred, 6],
    ["de", 2],
    ["fr", 1],
    ["it", 1],
    ["en", 2],
  ]);
}

export function sentences(random: Random, language: ContentLanguage, count: number): string[] {
  const out: string[] = [];
  for (let index = 0; index < count; index += 1) out.push(random.pick(SENTENCES[language]));
  return out;
}

/** A letter: greeting, paragraphs, closing and signature lines. */
export function letter(
  random: Random,
  language: ContentLanguage,
  to: string,
  signature: string[],
  paragraphs = random.int(1, 4),
): string[] {
  const lines = [random.pick(GREETINGS[language]).replace("{name}", to), ""];
  for (let index = 0; index < paragraphs; index += 1) {
    lines.push(sentences(random, language, random.int(1, 4)).join(" "), "");
  }
  lines.push(`${random.pick(CLOSINGS[language])}`, ...signature);
  return lines;
}

/** Text of about `size` bytes (compressible, like real documents). */
export function textOfSize(random: Random, language: ContentLanguage, size: number): string {
  const parts: string[] = [];
  let length = 0;
  let paragraph = 1;
  while (length < size) {
    const line = `${paragraph}. ${sentences(random, language, random.int(2, 6)).join(" ")}\n\n`;
    parts.push(line);
    length += Buffer.byteLength(line);
    paragraph += 1;
  }
  return Buffer.from(parts.join(""))
    .subarray(0, Math.max(size, 1))
    .toString("utf8")
    .replace(/\uFFFD$/, "");
}

/** A CSV table (a Swiss semicolon-separated export) of about `size` bytes. */
export function csvOfSize(random: Random, size: number): string {
  const rows = ["Datum;Konto;Beschreibung;Betrag CHF;MWST"];
  let length = rows[0]?.length ?? 0;
  const descriptions = [
    "Büromaterial",
    "Reisespesen Zürich–Genève",
    "Miete Büro",
    "Software-Abo",
    "Kaffee",
    "Weiterbildung",
  ];
  while (length < size) {
    const day = String(random.int(1, 28)).padStart(2, "0");
    const month = String(random.int(1, 12)).padStart(2, "0");
    const row = `${day}.${month}.2026;${random.int(1000, 6999)};${random.pick(descriptions)};${(random.int(100, 500000) / 100).toFixed(2)};8.1%`;
    rows.push(row);
    length += Buffer.byteLength(row) + 1;
  }
  return `${rows.join("\n")}\n`;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0);
  return Buffer.concat([length, typeAndData, crc]);
}

/** A valid PNG of about `size` bytes: RGB noise in stored (uncompressed) deflate blocks. */
export function png(random: Random, size: number): Buffer {
  const width = size > 40_000 ? 256 : 32;
  const rowBytes = 1 + width * 3;
  const height = Math.max(1, Math.round(Math.max(size - 120, rowBytes) / rowBytes));
  const raw = random.bytes(rowBytes * height);
  for (let row = 0; row < height; row += 1) raw[row * rowBytes] = 0;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(2, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("tEXt", Buffer.from("Software\u0000Alpvault Workspace emulator", "latin1")),
    pngChunk("IDAT", deflateSync(raw, { level: 0 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A JPEG-like photo of `size` bytes: JFIF header, PRNG entropy data, end-of-image marker. */
export function jpeg(random: Random, size: number): Buffer {
  const head = Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x48, 0x00,
    0x48, 0x00, 0x00, 0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00,
  ]);
  const payload = random.bytes(Math.max(0, size - head.length - 2));
  // Entropy-coded data never holds a marker: 0xFF would need stuffing, so avoid it.
  for (let index = 0; index < payload.length; index += 1) if (payload[index] === 0xff) payload[index] = 0xfe;
  return Buffer.concat([head, payload, Buffer.from([0xff, 0xd9])]);
}

/** A valid one-page PDF showing `lines`, padded to about `size` bytes with an embedded binary stream. */
export function pdf(random: Random, title: string, lines: string[], size: number): Buffer {
  const escape = (text: string): string =>
    text
      .normalize("NFC")
      .replace(/[^\x20-\x7e\u00a0-\u00ff]/g, "?")
      .replace(/[\\()]/g, "\\$&");
  const text = [title, "", ...lines]
    .slice(0, 40)
    .map(
      (line, index) => `BT /F1 ${index === 0 ? 16 : 10} Tf 56 ${780 - index * 16} Td (${escape(line)}) Tj ET`,
    )
    .join("\n");
  const content = Buffer.from(text, "latin1");
  const objects: Buffer[] = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R " +
        "/Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >> >>",
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} >>\nstream\n`),
      content,
      Buffer.from("\nendstream"),
    ]),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"),
  ];
  const filler = random.bytes(Math.max(0, size - 900 - content.length));
  objects.push(
    Buffer.concat([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width 1 /Height ${Math.max(1, Math.floor(filler.length / 3))} ` +
          `/ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${filler.length} >>\nstream\n`,
      ),
      filler,
      Buffer.from("\nendstream"),
    ]),
  );
  const chunks: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let offset = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(offset);
    const chunk = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]);
    chunks.push(chunk);
    offset += chunk.length;
  });
  const xref = [
    "xref",
    `0 ${objects.length + 1}`,
    "0000000000 65535 f ",
    ...offsets.map((value) => `${String(value).padStart(10, "0")} 00000 n `),
    "trailer",
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    "startxref",
    String(offset),
    "%%EOF",
    "",
  ].join("\n");
  chunks.push(Buffer.from(xref, "latin1"));
  return Buffer.concat(chunks);
}

/** An iCalendar invitation (text/calendar) for a meeting at `start`. */
export function calendarInvite(uid: string, summary: string, organiser: string, start: number): string {
  const stamp = (ms: number): string =>
    new Date(ms)
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  return [
    "BEGIN:VCALENDAR",
    "PRODID:-//Alpvault//Workspace emulator//EN",
    "VERSION:2.0",
    "METHOD:REQUEST",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    `DTSTAMP:${stamp(start - 86_400_000)}`,
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(start + 3_600_000)}`,
    `SUMMARY:${summary}`,
    `ORGANIZER:mailto:${organiser}`,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}
