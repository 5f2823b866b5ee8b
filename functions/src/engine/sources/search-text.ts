/**
 * Bounded, lower-cased search text for the catalog (docs/backup-format.md §6): keyword extraction and
 * length limits shared by the sources.
 */

/** Longest text field kept (subject, name, path). */
export const MAX_TEXT = 500;
/** Most keywords kept per item, and the longest keyword. */
export const MAX_KEYWORDS = 64;
export const MAX_KEYWORD_LENGTH = 40;
/** Most recipients kept in `to`. */
export const MAX_RECIPIENTS = 50;

/** As written (trimmed), cut to `max` characters: what result lists show. */
export function displayText(text: string, max = MAX_TEXT): string {
  return Array.from(text.trim()).slice(0, max).join("");
}

/** Lower-cased and cut to `max` characters (never in the middle of a surrogate pair). */
export function bounded(text: string, max = MAX_TEXT): string {
  const lower = text.toLowerCase().trim();
  return Array.from(lower).slice(0, max).join("");
}

/**
 * The distinct words of the given texts, lower-cased, in order of appearance: letters and digits of any
 * script; an email address also gives its local part and domain words.
 */
export function keywordsOf(texts: string[], max = MAX_KEYWORDS): string[] {
  const out = new Set<string>();
  for (const text of texts) {
    for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      if (out.size >= max) return [...out];
      if (word.length < 2) continue;
      out.add(Array.from(word).slice(0, MAX_KEYWORD_LENGTH).join(""));
    }
  }
  return [...out];
}
