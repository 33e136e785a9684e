import { mainClause } from "@/lib/text/clauses";
import { firstClause } from "@/lib/text/trim";
import { isBeginning, isTimePeriod } from "@/lib/text/word-kinds";
import { adjectiveGlosses, adverbGlosses } from "@/lib/text/wordnet";

/**
 * Whether a statement's words say its value holds only for a while or from a time still ahead, so it is not the value
 * the user holds now and for good (docs/memory-model.md, "Consolidation"): "lives in Porto temporarily", "has a
 * temporary job as a barista", "is covering as a receptionist this week", "lives in Lisbon until June", "moves to
 * Berlin next month", "starts as a nurse soon". A time that says when a value began is not one: "moved to Berlin this
 * month", "started as a nurse this week". Words are read lower-cased, as the slot readers give them.
 */
export function heldForAWhileOrAhead(words: readonly string[]): boolean {
  const begins = words.some(isBeginning);
  return words.some(
    (word, at) =>
      isForAWhileOrAhead(word) ||
      UNTIL.has(word) ||
      (word === "next" && isTimePeriod(words[at + 1] ?? "")) ||
      (word === "this" && !begins && isTimePeriod(words[at + 1] ?? "")) ||
      (word === "in" && COUNTS.test(words[at + 1] ?? "") && spanEndsAt(words, at + 2, 2)) ||
      // "for the summer", "for two weeks"; "has been renting … for three months" and "for years" say how long a home
      // has been one.
      (word === "for" && !perfect(words) && spanEndsAt(words, at + 1, 3, (period) => !LONG_SPANS.has(period))),
  );
}

/**
 * A time period within `width` words of `from` that ends the span: "in two weeks", "in a few months' time", "for the
 * summer"; not "in a day clinic" or "for the night shift", where the period names the kind of a thing.
 */
function spanEndsAt(words: readonly string[], from: number, width: number, accept = (_period: string) => true) {
  const period = words.findIndex(
    (word, at) => at >= from && at < from + width && isTimePeriod(word.replace(/'$/, "")) && accept(word),
  );
  return period >= 0 && (period === words.length - 1 || AFTER_A_SPAN.test(words[period + 1]!));
}
const AFTER_A_SPAN = /^(?:time|and|or|so|when|while|after|before|from|to|until)$/;
/** Spans that make a stay a home however it is said ("has lived in Lisbon for a few years"). */
export const LONG_SPANS = new Set(["years", "decades", "ages", "year", "decade"]);
const perfect = (words: readonly string[]) =>
  words.some((word, at) => /^ha(?:s|ve)$/.test(word) && words[at + 1] === "been");

const UNTIL = new Set(["until", "till", "til"]);
/** A count opening a span ahead: "in two weeks", "in a few months", "in 3 days". */
const COUNTS = /^(?:\d+|a|an|few|couple|two|three|four|five|six|seven|eight|nine|ten|several)$/;

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
 * heldForAWhileOrAhead of a statement's main clause and what it says in brackets (lib/text/clauses.ts): "User lives
 * in Porto (temporarily)" is read so, "User lives in Porto and flies to Berlin next week" not.
 */
export function statementHeldForAWhileOrAhead(text: string): boolean {
  const first = firstClause(text);
  const bracketed = [...first.matchAll(BRACKETED)].map((match) => match[1]!);
  return [mainClause(first), ...bracketed].some((part) => heldForAWhileOrAhead(wordsOf(part)));
}
const BRACKETED = /\(([^()]*)\)/g;
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}'-]+/gu) ?? [];
