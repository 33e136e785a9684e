import { isBeginning, isTimePeriod, isVerbForm } from "@/lib/text/word-kinds";
import { adverbGlosses } from "@/lib/text/wordnet";

/**
 * Whether a statement says its value holds only for a while or from a time still ahead, so it is not the value the
 * user holds now and for good (docs/memory-model.md, "Consolidation"): "lives in Porto temporarily", "is a barista
 * for the summer", "covering as a receptionist this week", "lives in Lisbon until June", "moves to Berlin next month",
 * "starts as a pilot on Monday". Read only in the user's own predicate, cut where another clause or subject begins
 * ("… with a flatmate who moves out next week", "… and the lease renews next month", "… while their partner works in
 * Munich for six months"), and only from signs that say so whatever the sentence is about: a time that says when a
 * value began ("got a job as a nurse this week") or how long it has held ("has lived in Berlin for eight months"),
 * or a time in a name ("an editor for the Sunday Times"), is none. Brackets are read as the value's own aside.
 */
export function statementHeldForAWhileOrAhead(text: string): boolean {
  const joined = text.replace(A_WHILE, "awhile");
  const bracketed = [...joined.matchAll(BRACKETED)].map((match) => match[1]!);
  const own = wordsOf(joined.replace(BRACKETED, " ").split(ANOTHER_CLAUSE)[0] ?? "");
  // A bracket's span is the predicate's: "has been living in Berlin (for eight months)" tells how long so far.
  const perfect = isPerfect(own.map((word) => word.toLowerCase()));
  return [own, ...bracketed.map(wordsOf)].some((part) => heldForAWhileOrAhead(part, perfect));
}
/**
 * "a while", "a short while": one word, so the clause is not cut at its "while"; read as "awhile" is, a while ahead
 * but for a perfect ("has lived in Porto for a while": how long so far).
 */
const A_WHILE = /\ba (?:short |little )?while\b/gi;
const BRACKETED = /\(([^()]*)\)/g;
/** Where the user's own predicate ends: a clause, a subject or a reason of its own begins. */
const ANOTHER_CLAUSE =
  /[,;:.!?]|\s[–—-]\s|\b(?:and|but|while|whilst|though|although|because|since|who|which|that|where|whose|when|after|before|so)\b/i;
// Words keep their capitals: a time period written with one past the first word is a name ("the Sunday Times").
const wordsOf = (text: string) => text.match(/[\p{L}\p{N}'’-]+/gu) ?? [];

/** heldForAWhileOrAhead of words already cut to one predicate (a labelled value's, lib/text/user-statement.ts). */
export function heldForAWhileOrAhead(written: readonly string[], perfectAround = false): boolean {
  const words = written.map((word) => word.toLowerCase());
  const perfect = perfectAround || isPerfect(words);
  const began = words.some((word, at) => beganThen(words, word, at));
  const verb = firstVerb(words);
  return words.some(
    (word, at) =>
      AWHILE_ADVERBS.has(word) ||
      (word !== "awhile" && isForAWhileAdverb(word)) ||
      (word === "for" && forAWhile(written, at + 1, perfect)) ||
      (UNTIL.has(word) && (isDateAhead(words, at + 1) || SOMEONE_DOES.has(words[at + 1] ?? ""))) ||
      (word === "next" && isShortPeriod(words[at + 1] ?? "")) ||
      (word === "awhile" && !perfect) ||
      (word === "in" && COUNTS.has(words[at + 1] ?? "") && spanEnds(words, at + 2)) ||
      // "is covering as a receptionist this week"; not "has been living in Porto this year" or "moved … this month".
      (word === "this" && !began && !perfect && !SINCE.has(words[at - 1] ?? "") && spanEnds(words, at + 1)) ||
      // "starts as a pilot on Monday", "is starting a job on Monday", "moves to Berlin in the new year": the
      // predicate's verb, a beginning in the present, with a time after it.
      (at === verb &&
        isBeginning(word) &&
        !isPast(word) &&
        words.slice(at + 1).some(isTimePeriod) &&
        !words.some((other) => RECURRING.has(other))),
  );
}

/** "has lived", "have now lived", "'ve been": a perfect, which tells how long a value has held so far. */
function isPerfect(words: readonly string[]): boolean {
  return words.some((word, at) => {
    if (!HAVING.test(word)) return false;
    let next = at + 1;
    while (isAdverbOnly(words[next] ?? "")) next++;
    return words[next] === "been" || isPast(words[next] ?? "");
  });
}

/** A verb in the past, not a state after "is" ("is based"): "moved", "got", "was hired", "became". */
function beganThen(words: readonly string[], word: string, at: number): boolean {
  return isPast(word) && !BEING.has(words[at - 1] ?? "");
}
const IRREGULAR_PASTS = new Set("got became took began found won came went made was were had left".split(" "));
/** A verb in the past tense: "moved", "started", "began". */
export const isPast = (word: string) => IRREGULAR_PASTS.has(word) || (word.endsWith("ed") && isVerbForm(word));

/**
 * A run of short periods starting at `at` that ends the span: "two weeks", "the winter season", "a few months' time";
 * not "a day clinic", where the period names the kind of a thing.
 */
function spanEnds(words: readonly string[], at: number): boolean {
  let end = at;
  while (OPENERS.has(words[end] ?? "") && end < at + 3) end++;
  if (!SHORT_PERIODS.has(stripped(words[end] ?? ""))) return false;
  while (SHORT_PERIODS.has(stripped(words[end + 1] ?? ""))) end++;
  return end === words.length - 1 || AFTER_A_SPAN.has(words[end + 1]!);
}
const stripped = (word: string) => word.replace(/['’]$/, "");
const AFTER_A_SPAN = new Set("time of or so now only on at".split(" "));
/** "starts work at 5am every day": a schedule, not a beginning ahead. */
const RECURRING = new Set(["every", "each", "daily", "weekly", "weekdays", "weekends"]);

const BEING = new Set(["is", "are", "am"]);
const HAVING = /^(?:has|have|'s|'ve|user's)$/;
const UNTIL = new Set(["until", "till", "til"]);
/** "until they find a place", "until their visa expires": until something happens. */
const SOMEONE_DOES = new Set(["they", "he", "she", "i", "we", "their", "his", "her", "my", "our"]);
/** "as of this month", "since this spring": when a value began. */
const SINCE = new Set(["of", "since", "from"]);
const COUNTS = new Set("a an two three four five six seven eight nine ten few couple several".split(" "));
/** Spans a stay or a stint lasts: "for the summer", "for two weeks", "next month"; not "for the Friday night show". */
const SHORT_PERIODS = new Set(
  (
    "summer summers winter spring autumn fall season semester term holiday holidays vacation week weeks weekend " +
    "weekends month months day days"
  ).split(" "),
);
const isShortPeriod = (word: string, next?: string) =>
  SHORT_PERIODS.has(word) && (next === undefined || !SHORT_PERIODS.has(next));
const AWHILE_ADVERBS = new Set(["temporarily", "provisionally", "briefly", "soon", "shortly", "tomorrow"]);
const MONTHS = new Set(
  "january february march april may june july august september october november december".split(" "),
);

/**
 * "for the summer", "for two weeks", "for a couple of months", "for now", "for the time being", "for a short while";
 * not how long it has held ("has lived in Berlin for eight months"), a long while ("for years"), a whole span ("for
 * the whole year"), or a name ("for the Sunday Times").
 */
function forAWhile(written: readonly string[], from: number, perfect: boolean): boolean {
  const words = written.slice(from, from + 6).map((word) => word.toLowerCase());
  if (/^(?:now|the time being|the short term)\b/.test(words.join(" "))) return true;
  // "has lived in Porto for a while": how long so far, as a counted span is.
  if (words[0] === "awhile") return !perfect;
  if (!spanEnds(words, 0)) return false;
  let at = 0;
  while (OPENERS.has(words[at] ?? "") && at < 3) at++;
  const named = /^\p{Lu}/u.test(written[from + at] ?? "");
  if (named || words.slice(0, at).some((word) => WHOLE.has(word))) return false;
  // The perfect tells how long so far when it counts the span; "has been living in Berlin for the summer" is a stay.
  return !(perfect && !words.slice(0, at).includes("the"));
}
const OPENERS = new Set([
  ...COUNTS,
  ..."the of another about around some more next coming whole full entire past last their his her my our".split(" "),
]);
const WHOLE = new Set(["whole", "full", "entire", "past", "last"]);

/** "until June", "until the end of the year", "until next spring", "until 2027"; not "until 7pm" or "until Friday". */
function isDateAhead(words: readonly string[], at: number): boolean {
  const from = words[at] === "the" ? at + 1 : at;
  const first = words[from] ?? "";
  const newYear = first === "new" && words[from + 1] === "year";
  return MONTHS.has(first) || newYear || first === "end" || first === "next" || /^\d{4}$/.test(first);
}

/** Where the predicate's verb is: the first word after the subject that is not an adverb ("User now starts …"). */
function firstVerb(words: readonly string[]): number {
  const subject = words[0] === "the" && words[1] === "user" ? 2 : words[0] === "user" ? 1 : 0;
  let at = subject;
  while (at < words.length && isAdverbOnly(words[at]!)) at++;
  // "is starting …": the verb is the participle.
  return BEING.has(words[at] ?? "") && words[at + 1]?.endsWith("ing") ? at + 1 : at;
}
const isAdverbOnly = (word: string) => word.endsWith("ly") || word === "now" || word === "still" || word === "also";

/** An adverb whose first senses (WordNet) are a limited time: "temporarily", "momentarily". */
const isForAWhileAdverb = (word: string) =>
  adverbGlosses(word)
    .slice(0, 1)
    .some((gloss) => /\b(?:for a limited time|for a short time|temporarily)\b/.test(gloss));

/**
 * Whether a statement tells of the speaker's childhood ("moved to Porto when they were a kid", "as a young child", "at
 * the age of 10", "in early childhood", "growing up"): what held then says nothing of now. An age under 18 or a word
 * of childhood after "when … was", not any "when I was" ("when I was offered a job", "when they were 30"); a word of
 * childhood after "as a" only where no noun follows it ("works as a child psychologist" is a job).
 */
export const toldOfAChildhood = (text: string): boolean => CHILDHOOD.test(text);
const CHILDHOOD =
  /\bwhen (?:i|we|they|he|she|the user) (?:was|were) (?:a |an |very |still )?(?:kids?|child|children|little|young|small|bab(?:y|ies)|teen(?:ager)?s?|toddler|[1-9]|1[0-7])\b|\bas (?:a |an )?(?:(?:very )?(?:young|little|small) )?(?:child|kid|teen(?:ager)?|toddler|baby|infant)(?![\p{L}-])(?!\s+(?!(?:of|with|when|and|in|to|at|on|from|for|but|so|they|he|she|we|i)\b)\p{L})|\bgrowing up\b|\bat (?:the )?age (?:of )?(?:[1-9]|1[0-7])\b|\b(?:in|during) (?:(?:their|his|her|my|our|early) )*childhood\b/iu;
