import { mainClause } from "@/lib/text/clauses";
import { firstClause } from "@/lib/text/trim";
import { isBeginning, isTimePeriod, isVerbForm } from "@/lib/text/word-kinds";
import { adjectiveGlosses, adverbGlosses, lemmaOf, nouns } from "@/lib/text/wordnet";

/**
 * Whether a statement's words say its value holds only for a while or from a time still ahead, so it is not the value
 * the user holds now and for good (docs/memory-model.md, "Consolidation"): "lives in Porto temporarily", "has a
 * temporary job as a barista", "is covering as a receptionist this week", "lives in Lisbon until June", "is a barista
 * for the summer", "moves to Berlin next month", "starts as a pilot on Monday". A time that says when a value began
 * is not one ("moved to Berlin this month", "got a job as a nurse this week", "a nurse since this spring"), nor how
 * long it has held ("has lived in Berlin for eight months"). Words are read lower-cased.
 */
export function heldForAWhileOrAhead(words: readonly string[]): boolean {
  // "moved", "got", "was hired"; not "is based", a state.
  const past = words.some((word, at) => isPast(word) && !BEING.has(words[at - 1] ?? ""));
  return words.some(
    (word, at) =>
      isForAWhileOrAhead(word) ||
      (UNTIL.has(word) && isPointInTime(words, at + 1)) ||
      (word === "next" && isTimePeriod(words[at + 1] ?? "")) ||
      // "this week" of a value that did not begin then ("covering as a receptionist this week").
      (word === "this" && isTimePeriod(words[at + 1] ?? "") && !past && !SINCE.has(words[at - 1] ?? "")) ||
      (word === "in" && spanAt(words, at + 1)?.some((opener) => !PLAIN.has(opener)) === true) ||
      (word === "for" && forAWhile(words, at + 1)) ||
      // "starts as a pilot on Monday", "is starting a job on Monday", "moves to Berlin in the new year": a beginning
      // in the present, with a time.
      (isBeginning(word) &&
        (/[^s]s$/.test(word) || (word.endsWith("ing") && /^(?:is|are|am)$/.test(words[at - 1] ?? ""))) &&
        words.slice(at + 1).some((later) => isTimePeriod(later))),
  );
}

const UNTIL = new Set(["until", "till", "til"]);
const SINCE = new Set(["since", "of", "from", "earlier"]);
const BEING = new Set(["is", "are", "am", "be", "being"]);
/** Words that open a span: "for two weeks", "for a couple of months", "for the next few months", "in 3 days". */
const COUNTS = new Set(
  (
    "a an the two three four five six seven eight nine ten few couple several some next coming more of whole past " +
    "last their his her my our"
  ).split(" "),
);
/** Pasts WordNet does not inflect, of verbs that begin or hold a value. */
const IRREGULAR_PASTS = new Set("got became took began found won came went made was were had left".split(" "));
const isPast = (word: string) => IRREGULAR_PASTS.has(word) || (word.endsWith("ed") && isVerbForm(word));

/**
 * The words that open a span of time at `from`, when one is there: openers, then a period, then the span's end or
 * more of it ("the winter season", "the summer of 2026", "several months each year"); not a period naming the kind of
 * a thing ("a day clinic", "the night shift"), nor one after other words ("for work last month" says why, then when).
 * A period in the plural needs no opener ("for weeks").
 */
function spanAt(words: readonly string[], from: number): string[] | undefined {
  let at = from;
  while (COUNTS.has(words[at] ?? "") || /^\d+$/.test(words[at] ?? "")) at++;
  const period = (words[at] ?? "").replace(/'$/, "");
  if (!isTimePeriod(period) || (at === from && !period.endsWith("s"))) return undefined;
  const next = words[at + 1];
  const ends = next === undefined || isTimePeriod(next) || next === "being" || !isNoun(next);
  return ends ? words.slice(from, at) : undefined;
}
const isNoun = (word: string) => lemmaOf(word, nouns().index) !== undefined;
/** Openers that count nothing: "in the mornings" is when, "in two weeks" how far ahead. */
const PLAIN = new Set(["the", "of", "whole", "more", "their", "his", "her", "my", "our"]);

/**
 * "for the summer", "for two weeks", "for now", "for the time being": a stay or a job for a while. How long a value has
 * held is not ("has lived in Berlin for eight months", "has worked as a nurse for six months"), nor a long while ("for
 * years").
 */
function forAWhile(words: readonly string[], from: number): boolean {
  if (words[from] === "now") return true;
  const opening = spanAt(words, from);
  if (!opening) return false;
  const period = words[from + opening.length]!;
  // "for years"; "for the past six months", "for the last month": how long so far.
  if (LONG_WHILE.has(period) || opening.some((word) => SO_FAR.has(word))) return false;
  // The perfect tells how long so far when it counts the span; "has been living in Berlin for the summer" is a stay.
  return opening.includes("the") || opening.includes("this") || !perfect(words);
}
const LONG_WHILE = new Set(["years", "decades", "ages"]);
const SO_FAR = new Set(["past", "last"]);
const perfect = (words: readonly string[]) =>
  words.some((word, at) => /^ha(?:s|ve)$/.test(word) && (words[at + 1] === "been" || isPast(words[at + 1] ?? "")));

/**
 * A point in time after "until": "until June", "until the end of the year", "until next spring", "until 2027"; not
 * "until 7pm" or "until further notice".
 */
function isPointInTime(words: readonly string[], at: number): boolean {
  const first = words[at] === "the" ? (words[at + 1] ?? "") : (words[at] ?? "");
  return isTimePeriod(first) || first === "end" || first === "next" || /^\d{4}$/.test(first);
}

/** Spans that make a stay a home however it is said ("has lived in Lisbon for a few years", "moved … years ago"). */
export const LONG_SPANS = new Set(["years", "decades", "ages", "year", "decade"]);

/**
 * A word whose first senses (WordNet) name a limited time or one ahead: "temporarily", "briefly", "soon", "shortly",
 * "tomorrow", "temporary", "interim", "short-term". A word with a sense of the present too ("presently", "now") says
 * nothing of the kind for sure.
 */
function isForAWhileOrAhead(word: string): boolean {
  const glosses = [...adverbGlosses(word).slice(0, SENSES), ...adjectiveGlosses(word).slice(0, 1)];
  return glosses.some((gloss) => WHILE_OR_AHEAD.test(gloss)) && !glosses.some((gloss) => PRESENT.test(gloss));
}
const SENSES = 2;
const WHILE_OR_AHEAD =
  /\b(?:for a limited time|not permanent|for a short time|over a limited period|intermediate interval|temporarily|in the near future|the next day)\b/;
const PRESENT = /\b(?:at this time|at the present moment|in these times)\b/;

/**
 * heldForAWhileOrAhead of a statement's own predicate and what it says in brackets (lib/text/clauses.ts): "User lives
 * in Porto (temporarily)" is read so; not what another subject does in a clause of its own ("… with a flatmate who
 * moves out next week", "… and their sister visits next week", "… but moves to Munich next month").
 */
export function statementHeldForAWhileOrAhead(text: string): boolean {
  const first = firstClause(text);
  const bracketed = [...first.matchAll(BRACKETED)].map((match) => match[1]!);
  const own = mainClause(first).split(ANOTHER_CLAUSE)[0] ?? "";
  return [own, ...bracketed].some((part) => heldForAWhileOrAhead(wordsOf(part)));
}
const BRACKETED = /\(([^()]*)\)/g;
const ANOTHER_CLAUSE =
  /,\s*(?:soon|then)\b|\b(?:who|which|that|where|whose|but)\b|\band (?:their|his|her|they|he|she|it)\b/i;
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}'-]+/gu) ?? [];
