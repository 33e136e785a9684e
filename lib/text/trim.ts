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
