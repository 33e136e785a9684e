const WHITESPACE = /\s/;

/**
 * `text` without the whitespace and the given `characters` at its end ("I live in Lisbon!! " → "I live in Lisbon").
 * A loop, not a pattern such as /[\s.!?]+$/: the engine tries such a pattern from every character of a long run
 * that is not at the end and scans to the run's end from each, which takes time quadratic in the run's length.
 */
export function trimEnd(text: string, characters = ""): string {
  let end = text.length;
  while (end > 0 && (characters.includes(text[end - 1]!) || WHITESPACE.test(text[end - 1]!))) end--;
  return text.slice(0, end);
}

/** Where a clause ends: a ";", a dash between spaces, or a sentence's end stop before a space or the end. */
const CLAUSE_END = /;|\s[–—-]\s|[.!?](?=\s|$)/;

/**
 * The statement up to its first ";", dash or sentence end ("User loves sailing; their partner teases them about it" →
 * "User loves sailing"): what follows is an aside, often about someone else. The pattern starts at one character, so
 * each try is short; the whitespace before the end is trimmed by trimEnd, not by the pattern.
 */
export function firstClause(text: string): string {
  const end = CLAUSE_END.exec(text)?.index;
  return trimEnd(end === undefined ? text : text.slice(0, end)).trim();
}
