/**
 * The one reading of a place name, shared by the offline reader's "We settled in Lyon" (lib/ai/offline/statements.ts),
 * the home slot (lib/text/slot-kinds.ts, lib/text/slots.ts) and the consolidation finder's prefilter
 * (lib/memory/consolidation/candidates.ts): where two read places apart, one counts "the Netherlands" as a home and
 * another does not, or they give one city two values ("new york city" / "new york city last year").
 *
 * A place name is capitalised words, with the small words of names between them ("Rio de Janeiro", "Frankfurt am
 * Main", "Porto, Portugal"), after "the" for a country or region named with it ("the Netherlands", "the United
 * Kingdom"). "on" is not one of the small words: "Lisbon on Monday" names a day, and "Stratford-on-Avon" is one word.
 */
// A capital "I" after the name opens the next clause ("moved to Berlin I've been happier"), never part of it.
const PLACE_NAME =
  /^(?:the\s+)?\p{Lu}[\p{L}.'’-]*(?:(?:\s+|,\s*|\s+(?:de|da|do|del|di|la|le|of|upon|am|im|sur)\s+)(?!I(?:['’]\p{L}+)?(?![\p{L}.'’-]))\p{Lu}[\p{L}.'’-]*)*/u;

/** The place named at the start of `text` ("Rio de Janeiro last spring" → "Rio de Janeiro"), if one is. */
export function placeNameAt(text: string): string | undefined {
  return PLACE_NAME.exec(text)?.[0];
}

/**
 * The place a verb of residence's object names: "in" or "to", after a particle or not ("back to", "over in"), and a
 * place name ("in the Netherlands", "back to Porto last year" → "Porto"). Both the offline reader's "I settled in …"
 * (lib/ai/offline/statements.ts) and the home slot's "User settled in …" (lib/text/slot-kinds.ts) read it here.
 */
export function placeAfterVerb(object: string): string | undefined {
  const place = /^(?:(?:back|over|down|up|out)\s+)?(?:in|to)\s+(\S.*)$/i.exec(object.trim())?.[1];
  return place === undefined ? undefined : placeNameAt(place);
}

/** A place name as a slot value: lower case, without "the" ("the Netherlands" and "The Netherlands" are one place). */
export function placeValue(name: string): string {
  return name.toLowerCase().replace(/^the\s+/, "");
}

/**
 * "in" or "to", in any case, and what may begin a place name after it, or such a word followed by one or two words
 * that end the text ("calls Lisbon home", "has made Ghent their home": lib/text/slot-kinds.ts), as a PostgreSQL
 * pattern: the finder reads into TypeScript only the memories it matches, so it must match every text placeNameAt
 * reads a home from, never fewer.
 * The first letter is any character PostgreSQL calls neither lower case, a digit, a blank nor punctuation: an
 * upper-case letter in every locale, and in the C locale, which cases ASCII alone, "É" too.
 */
const PLACE_START = "[^[:lower:][:digit:][:space:][:punct:]]";
export const MAY_NAME_A_PLACE = `\\m([iI][nN]|[tT][oO])\\s+(the\\s+)?${PLACE_START}|\\s${PLACE_START}\\S*(\\s+\\S+){1,2}[[:space:][:punct:]]*$`;
