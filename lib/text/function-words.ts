/**
 * Small closed classes of English words that the offline reader (lib/ai/offline), the slot rules (lib/text/slots.ts,
 * lib/text/slot-kinds.ts) and the offline consolidation read alike: one list each, so a word added for one reader is
 * read the same way by the others.
 */

/**
 * Adverbs that may stand beside a verb without changing the fact a statement gives: between the subject and the verb
 * ("I also work as…", "User now lives in…") or between the verb and what follows it ("User is now a nurse").
 */
export const ADVERBS_BESIDE_A_VERB: ReadonlySet<string> = new Set(
  (
    "now currently still also actually officially finally recently just proudly happily already really mostly " +
    "absolutely definitely totally mainly only truly"
  ).split(" "),
);

/**
 * Words that qualify a time period in a time expression: how often ("most weekends", "every Sunday", "some
 * evenings") or whose time ("all summer", "their free time", "spare evenings").
 */
export const TIME_QUALIFIERS: ReadonlySet<string> = new Set("most every many some all their free spare".split(" "));

/** Prepositions that open a time expression: "on Sundays", "at weekends", "in their free time", "during the week". */
export const TIME_PREPOSITIONS: ReadonlySet<string> = new Set(["in", "during", "on", "at"]);
