import { clausesOf, mainClause } from "@/lib/text/clauses";
import { TIME_QUALIFIERS } from "@/lib/text/function-words";
import {
  adjectiveBase,
  isBaseVerb,
  isBeginning,
  isContinuing,
  isJudging,
  isKindOf,
  isLikingVerb,
  isOfFormerTime,
  isOfFrequency,
  isPersonWord,
  isReporting,
  isTimePeriod,
  isVerbForm,
} from "@/lib/text/word-kinds";
import { adjectiveGlosses, adverbGlosses, isAdverb, isMostlyAdjective, lemmaOf, nouns } from "@/lib/text/wordnet";

/**
 * A restatement of a liking or a habit in words the offline consolidation's framing does not list (docs/memory-model.md,
 * "Consolidation"), for two memories the finder found close in meaning: the two share a run of at least three words
 * (what is liked: "hiking in the mountains"), each frames it as a liking or a habit, and no word outside that run names
 * a distinct thing — a number or an id, a name, a thing or a person (WordNet: under object or matter), one time rather
 * than a habit ("in winter"), a negation or a quantifier, a former time, or a verb that is not one of liking.
 * "hiking in the mountains is a big part of the user's life" restates "User loves hiking in the mountains"; "User's
 * sister loves hiking in the mountains", "User rarely goes hiking in the mountains" do not. Each is read in its main
 * clause (lib/text/clauses.ts): an aside ("…; their partner teases them about it", "(twice a week)", "… and finds it
 * restorative") is kept in the merged memory, not compared.
 */
export function restates(a: string, b: string, frames: (word: string) => boolean): boolean {
  if (asidesDiffer(a, b)) return false;
  const left = tokensOf(focusOf(mainClause(a), frames));
  const right = tokensOf(focusOf(mainClause(b), frames));
  const run = longestCommonRun(left.words, right.words);
  if (run.length < 3 || run.words.filter((word) => !FUNCTION_WORDS.has(word)).length < 2) return false;
  const rest = (side: typeof left, start: number) =>
    side.words.flatMap((word, at) => (at >= start && at < start + run.length ? [] : [{ word, at }]));
  const sides = [
    { side: left, rest: rest(left, run.left) },
    { side: right, rest: rest(right, run.right) },
  ];
  // "spicy food from street vendors" / "sweet food from street vendors": each qualifies what is liked its own way.
  if (sides.every(({ side, rest }) => rest.some(({ word, at }) => qualifies(side, word, at, frames)))) return false;
  // The framing may be in the shared run itself ("User still loves sailing … as much as ever").
  const runFrames = run.words.some(frames);
  return sides.every(
    ({ side, rest }) =>
      (runFrames ||
        rest.some(
          ({ word, at }) =>
            frames(word) ||
            habitWord(word) ||
            // "keeps baking bread", "continues to sail": a habit kept.
            isContinuing(word) ||
            beingInto(side.words, at) ||
            inHowOftenClause(side.words, at) ||
            // "since childhood", "for years", "twice a month": a habit kept; "started" one taken up that holds.
            isHowOften(side.words, at) ||
            (isBeginning(word) && !side.words.slice(0, at).some((before) => MODALS.has(before))),
        )) &&
      rest.every(({ word, at }) => names(side, word, at, frames) === false),
  );
}

/**
 * A liking said generally and then narrowed after a comma to an activity of its own ("User enjoys time on the water,
 * especially sailing small boats", "Is an avid tinkerer, especially fond of restoring old bicycles"): the liking is of
 * that activity, and it is compared so, with what the statement says up to its framing word (who likes it, a
 * negation, a past, a wish). A focus that completes the general activity ("User enjoys cooking, especially Thai
 * curries") or a general part naming a person ("cooking for their grandmother, especially baking pies") leaves the
 * clause as it is.
 */
function focusOf(clause: string, frames: (word: string) => boolean): string {
  const comma = FOCUS.exec(clause);
  if (!comma) return clause;
  const focus = clause.slice(comma.index + comma[0].length);
  const [first = "", second = ""] = focus.toLowerCase().split(/\s+/);
  const activity =
    isGerund(first) || ((frames(first) || LIKING_ADJECTIVES.has(first)) && /^(?:of|about)$/.test(second));
  const general = clause.slice(0, comma.index).toLowerCase().split(/\s+/);
  const frame = general.findIndex((word) => frames(word) || LIKING_ADJECTIVES.has(word));
  // Before the framing word only the subject, being and stress ("User is an avid …", "User really enjoys …"): a verb
  // there ("stopped enjoying", "lost interest in") changes the liking; after it only what is liked, no verb ("is keen
  // to try …").
  const plain = general.slice(0, frame).every((word) => BEFORE_A_FRAME.has(word) || STRESS.has(word));
  const verbAfter = general.slice(frame + 1).some((word) => word === "to" || isGerund(word) || WISHED.has(word));
  // "… for their grandmother", "… with the kids": someone else in the liking. "an avid tinkerer" is the user.
  const someone = general.some((word, at) => at > frame && isPersonWord(word) && SOMEONE_ELSES.has(general[at - 1]!));
  if (!activity || frame < 0 || !plain || verbAfter || someone) return clause;
  return [
    ...clause
      .slice(0, comma.index)
      .split(/\s+/)
      .slice(0, frame + 1),
    focus,
  ].join(" ");
}
const SOMEONE_ELSES = new Set(["their", "his", "her", "my", "our", "with", "for", "to", "the"]);
/**
 * Words and phrases a restatement adds or drops without changing the fact. A quantifier on its own is not one: "likes
 * all dogs" says more than "likes dogs", so "all", "most" and "of" count only inside "most of all".
 */
export const STRESS = new Set(
  "the a an really truly very so still now also just actually indeed quite definitely absolutely".split(" "),
);

/** "likes the idea of …": a liking of what is only thought of. */
const WISHED = new Set(["idea", "thought", "prospect", "notion"]);
const BEFORE_A_FRAME = new Set(["user", "user's", "the", "is", "an", "a", "big", "huge", "true"]);
const FOCUS = /,\s*(?:especially|mainly|particularly|mostly|chiefly|primarily|above all|in particular)\s/i;
/** Adjectives of liking a thing ("fond of", "passionate about", "an avid …"), read so here and by the consolidation. */
export const LIKING_ADJECTIVES = new Set(["fond", "keen", "passionate", "crazy", "mad", "avid", "enthusiastic"]);
const isGerund = (word: string) => word.endsWith("ing") && isVerbForm(word);

/**
 * A word that tells what kind of thing is liked or how, without naming a thing of its own: an adjective or an
 * abstract noun outside the framing ("spicy", "history" in "reading books about history").
 */
function qualifies(side: Tokens, word: string, at: number, frames: (word: string) => boolean): boolean {
  if (framesOrTells(side, word, at, frames) || TIME_QUALIFIERS.has(word)) return false;
  if (isMostlyAdjective(adjectiveBase(word))) return true;
  return !isAdverb(word) && !isVerbForm(word) && lemmaOf(word, nouns().index) !== undefined;
}

/**
 * A word that names nothing of its own: a function word, the framing of a liking or a habit, who said it or how the
 * user sees it ("mentioned that", "finds … relaxing"), or the thing a favourite is ("favourite way").
 */
function framesOrTells(side: Tokens, word: string, at: number, frames: (word: string) => boolean): boolean {
  if (FUNCTION_WORDS.has(word) || frames(word) || habitWord(word) || isBeginning(word)) return true;
  // "favourite way", "favourite weekend activity", "one of their favourite pastimes": what a favourite is.
  const favourite = FAVOURITE.has(side.words[at - 1] ?? "") || FAVOURITE.has(side.words[at - 2] ?? "");
  return isReporting(word) || isJudging(word) || favourite || (word === "one" && side.words[at + 1] === "of");
}

/**
 * Asides on both sides that speak of one thing differently ("(especially Catan)" / "(especially chess)", "… and hates
 * spicy food" / "… and likes spicy food"): merging would keep one and lose the other. Asides that share no word but
 * function words ("… and finds it restorative" / "… and pursues it whenever they can") each add to the one fact.
 */
function asidesDiffer(a: string, b: string): boolean {
  const [left, right] = [a, b].map((text) => tokensOf(clausesOf(text).slice(1).join(" "))) as [Tokens, Tokens];
  if (left.words.length === 0 || right.words.length === 0 || left.words.join(" ") === right.words.join(" ")) {
    return false;
  }
  // Either names a thing, a person or a name of its own ("(Agatha Christie)" / "(Dan Brown)", "(with their dog)").
  const naming = (side: Tokens) =>
    side.words.some(
      (word, at) =>
        side.named.has(at) ||
        /\d/.test(word) ||
        (!FUNCTION_WORDS.has(word) &&
          (isThing(word) || isPersonWord(word)) &&
          adjectiveGlosses(adjectiveBase(word)).length === 0 &&
          !(isVerbForm(word) && (at === 0 || VERB_BEFORE.has(side.words[at - 1]!)))),
    );
  if (naming(left) || naming(right)) return true;
  return left.words.some((word) => !FUNCTION_WORDS.has(word) && right.words.includes(word));
}
/** Words after which a verb stands ("… and calls it", "… they get", "… to try"). */
const VERB_BEFORE = new Set(["and", "they", "he", "she", "it", "to", "i", "we", "who"]);

/** "is (really) into sailing": being into a thing is liking it. */
function beingInto(words: string[], at: number): boolean {
  if (words[at] !== "into") return false;
  const before = words.slice(0, at).findLast((word) => !FUNCTION_WORDS.has(word) || BEING.has(word));
  return before !== undefined && BEING.has(before);
}
const BEING = new Set(["is", "are", "am", "been"]);

const FUNCTION_WORDS = new Set(
  (
    "a an the to of for about on in into at with from by as their his her its my our they them it is are be been " +
    "has have do does go goes get gets that which who what something really very so just also still quite most " +
    // Pronouns, the words that open a clause of time or manner ("whenever they can", "how the user spends…") and
    // "and": a closed class, naming nothing of its own.
    "he she him we us you how when whenever while since and"
  ).split(" "),
);
const FAVOURITE = new Set(["favourite", "favorite"]);
const MODALS = new Set("can could will would might may should must".split(" "));
const OPENS_A_CLAUSE_OF_TIME = new Set(["when", "whenever", "while"]);
const NEGATORS = /^(?:not|never|no|none|nothing|nobody|cannot|can't|won't|isn't|doesn't|don't)$|n't$/;
const QUANTIFIERS = new Set("all every each some any few many several both either neither only".split(" "));

interface Tokens {
  words: string[];
  /** Where the word after "user's" is: what the user has, which may be a subject of its own. */
  owned?: number;
  /** Words written with a capital where no sentence begins: names. */
  named: Set<number>;
}

function tokensOf(text: string): Tokens {
  const raw = withoutIdioms(text)
    .replace(/[^\p{L}\p{N}\s']/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
  const words: string[] = [];
  const named = new Set<number>();
  let owned: number | undefined;
  for (const [at, token] of raw.entries()) {
    const lower = token.toLowerCase();
    // What the user has, as the statement's subject: "User's club …", not "… the user's life".
    if (lower === "user's" && words.length === 0) owned = 0;
    // The user is the subject wherever they are named.
    if (lower === "user" || lower === "user's" || (lower === "the" && raw[at + 1]?.toLowerCase().startsWith("user")))
      continue;
    if (at > 0 && /^\p{Lu}/u.test(token)) named.add(words.length);
    words.push(lower);
  }
  return { words, named, owned };
}

/**
 * Idioms of a liking or a habit, read as the plain words they stand for: "can't get enough of" is loving, "can't
 * stop" keeping on, "these days" now, a "go-to", "happy place" or "the best part of" a favourite, "took up" a
 * beginning, "makes time for" and "tries to" a habit kept, "a lot of their free time" their free time.
 */
const IDIOMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bcan(?:'t|not| not) get enough of\b/gi, "loves"],
  [/\bcan(?:'t|not| not) stop\b/gi, "keeps"],
  [/\b(?:these days|nowadays|lately|at the moment)\b/gi, "now"],
  [/\bgo-to\b/gi, "favourite"],
  [/\bthe best part of\b/gi, "the favourite part of"],
  [/\bhappy place\b/gi, "favourite place"],
  [/\b(?:took|takes|has taken|have taken) up\b/gi, "started"],
  [/\b(?:makes|make|made) time for\b/gi, "spends their time on"],
  [/\bwind(?:s|ing)? down\b/gi, "relaxes"],
  [/\btries to\b/gi, ""],
  [/\ba lot of (their|his|her|my) (free|spare) time\b/gi, "$1 $2 time"],
];

/** The text with its idioms of a liking or a habit in the plain words they stand for (IDIOMS). */
export const withoutIdioms = (text: string): string =>
  IDIOMS.reduce((rest, [idiom, plain]) => rest.replace(idiom, plain), text.replace(/’/g, "'"));

/**
 * The longest run of words the two share, the first of them when runs tie. One row of run lengths at a time (the
 * length of the run ending at each pair of words), so its time is the product of the two lengths, not that times the
 * run's length: two near-identical memories of tens of thousands of words took minutes.
 */
function longestCommonRun(left: string[], right: string[]) {
  let best = { length: 0, left: 0, right: 0 };
  let previous = new Int32Array(right.length + 1);
  let current = new Int32Array(right.length + 1);
  for (let i = 1; i <= left.length; i++) {
    for (let j = 1; j <= right.length; j++) {
      const length = left[i - 1] === right[j - 1] ? previous[j - 1]! + 1 : 0;
      current[j] = length;
      if (length > best.length) best = { length, left: i - length, right: j - length };
    }
    [previous, current] = [current, previous];
  }
  return { ...best, words: left.slice(best.left, best.left + best.length) };
}

/** A habit said by how often: an adverb of frequency, or a plural time period ("weekends"). */
const habitWord = (word: string) => isOfFrequency(word) || (word.endsWith("s") && isTimePeriod(word));

/**
 * Part of a time said as how often or since when: a period with another ("every Saturday morning", "Sunday
 * mornings"), a count of times ("twice a month", "three times a week"), or "since" one ("since childhood").
 */
function isHowOften(words: string[], at: number): boolean {
  const [before, word, next] = [words[at - 1] ?? "", words[at]!, words[at + 1] ?? ""];
  if (COUNTS.has(word) || (next === "times" && isNumberWord(word))) return true;
  // "a few years ago": since when.
  if (word === "ago" && isTimePeriod(before)) return true;
  // "a couple of times a week".
  if (word === "couple" && next === "of" && words[at + 2] === "times") return true;
  if (isHowLong(words, at)) return true;
  if (!isTimePeriod(word)) return false;
  if (isTimePeriod(before) || (isTimePeriod(next) && next.endsWith("s")) || before === "since") return true;
  return /^(?:a|an|per|each)$/.test(before) && COUNTS.has(words[at - 2] ?? "");
}
const COUNTS = new Set(["once", "twice", "thrice", "times"]);

/**
 * Why the user does it ("… on Sundays to clear their head"): an infinitive after a noun or a pronoun, not
 * after a verb or an adjective, which would make it a wish ("wants to try", "is keen to start"), up to the next
 * preposition: "to relax with their friend Ana", "to train for the Berlin marathon" name someone and something.
 */
function inPurposeOf(words: string[], at: number): boolean {
  const opens = words.lastIndexOf("to", at - 1);
  if (opens < 1 || !isBaseVerb(words[opens + 1] ?? "")) return false;
  if (words.slice(opens + 2, at + 1).some((word) => PREPOSITIONS.has(word))) return false;
  const before = words[opens - 1]!;
  return !isVerbForm(before) && !isMostlyAdjective(adjectiveBase(before)) && !MODALS.has(before);
}
const PREPOSITIONS = new Set("with for at in on from by about to into near".split(" "));

/**
 * Part of how long a habit has lasted: "for (about) ten years", "for over a decade", "for 10 years": a period, or the
 * count before one, after "for" and words that only hedge the count.
 */
function isHowLong(words: string[], at: number): boolean {
  const period = HOW_LONG_PERIODS.test(words[at] ?? "") ? at : at + 1;
  // `at` is the period or one of the counts before it ("ten", "about", "a few").
  if (!HOW_LONG_PERIODS.test(words[period] ?? "") || (period !== at && !isCount(words[at]!))) return false;
  let start = period - 1;
  while (start >= 0 && isCount(words[start]!)) start -= 1;
  // "for (about) ten years"; "(a few) years ago", since when, after a beginning ("started … a few years ago").
  return words[start] === "for" || (words[period + 1] === "ago" && start < period - 1);
}
const isCount = (word: string) => isNumberWord(word) || /^\d+$/.test(word) || HEDGES.has(word);
const HOW_LONG_PERIODS = /^(?:years?|decades?|months?|weeks?|ages)$/;
const HEDGES = new Set("a an about over nearly almost around roughly like more than few".split(" "));
const isNumberWord = (word: string) => /^(?:one|two|three|four|five|six|seven|eight|nine|ten|several|many)$/.test(word);

/**
 * Whether the word is one of an adverbial of how often made of words that name nothing: "whenever time permits",
 * "every chance they get", "as often as possible", "as much as they can". "whenever they have a migraine" names a
 * condition, which keeps two habits apart; its words are read as any others.
 */
function inHowOftenClause(words: string[], at: number): boolean {
  const opens = words
    .slice(0, at + 1)
    .findLastIndex(
      (word, from) =>
        word === "whenever" ||
        (/^(?:every|any)$/.test(word) && /^(?:chance|opportunity|time)$/.test(words[from + 1] ?? "")) ||
        (word === "as" && /^(?:often|much)$/.test(words[from + 1] ?? "") && words[from + 2] === "as"),
    );
  return opens >= 0 && words.slice(opens, at + 1).every((word) => HOW_OFTEN_WORDS.has(word));
}
const HOW_OFTEN_WORDS = new Set(
  (
    "whenever every any chance opportunity time as often much possible they i he she we can could permits allows " +
    "get gets got have has free"
  ).split(" "),
);

/** The word after the qualifiers of a time period that start at `at` ("every free weekend" → "weekend"). */
function periodAfter(words: string[], at: number): string {
  let end = at;
  while (end < at + 3 && TIME_QUALIFIERS.has(words[end] ?? "")) end++;
  return words[end] ?? "";
}

/** Whether a word outside the shared run names something of its own, which makes the two statements two facts. */
function names(side: Tokens, word: string, at: number, frames: (word: string) => boolean): boolean {
  const next = side.words[at + 1] ?? "";
  // "most weekends", "every free weekend": qualifiers of a time period tell how often; "likes all dogs" quantifies.
  if (TIME_QUALIFIERS.has(word) && isTimePeriod(periodAfter(side.words, at))) return false;
  // "most of their free time": a share of the user's time, as "most weekends" is.
  if (word === "most" && next === "of" && isTimePeriod(periodAfter(side.words, at + 2))) return false;
  if (isTimePeriod(word) && TIME_QUALIFIERS.has(side.words[at - 1] ?? "")) return false;
  // "on Sundays": a habit, as the consolidation reads it; "on Sunday" may be one day.
  if (isTimePeriod(word) && word.endsWith("s") && side.words[at - 1] === "on") return false;
  if (isHowOften(side.words, at) || inPurposeOf(side.words, at)) return false;
  // "every chance they get"; a name or a negation there still counts ("whenever Ana visits", "whenever it's not raining").
  if (inHowOftenClause(side.words, at) && !side.named.has(at) && !NEGATORS.test(word)) return false;
  // "used to love", "loved it back then": a liking the user had, not has ("has loved … for years" they still have).
  if (word === "used" && next === "to") return true;
  if (word.endsWith("ed") && isLikingVerb(word) && !/^ha(?:s|ve|d)$/.test(side.words[at - 1] ?? "")) return true;
  // The user's own club, band or company is another subject ("User's club loves …"); a favourite or a habit is not.
  if (at === side.owned && !frames(word) && !habitWord(word)) return true;
  // "is eager to go", "is keen to try": a wish, not a liking held ("is devoted to hiking" is one).
  if (next === "to" && adjectiveGlosses(adjectiveBase(word)).length > 0 && isBaseVerb(side.words[at + 2] ?? "")) {
    return true;
  }
  // "would love to try": a wish or a maybe, not a liking held; "whenever they can" tells how often.
  if (MODALS.has(word)) return !side.words.slice(0, at).some((before) => OPENS_A_CLAUSE_OF_TIME.has(before));
  if (/\d/.test(word) || side.named.has(at) || NEGATORS.test(word) || QUANTIFIERS.has(word)) return true;
  // "most" stresses a liking only at the end ("…what the user enjoys most").
  if (word === "most") return at !== side.words.length - 1;
  if (framesOrTells(side, word, at, frames)) return false;
  // "remains", "continues to", "keeps": the same holds on; "a lot" only stresses ("a lot of" counts).
  if (isContinuing(word) || (word === "lot" && side.words[at - 1] === "a" && next !== "of")) return false;
  if (isTimePeriod(word) || word.includes("'")) return true;
  // "formerly", "rarely" ("not often"), "hardly ever" ("almost not").
  if (isAdverb(word)) {
    return (
      isOfFormerTime(word) ||
      adverbGlosses(word)
        .slice(0, 2)
        .some((gloss) => /\bnot\b/.test(gloss))
    );
  }
  if (isMostlyAdjective(adjectiveBase(word))) return false;
  if (isThing(word)) return true;
  if (isVerbForm(word)) return true;
  return lemmaOf(word, nouns().index) === undefined;
}

/**
 * A noun whose usual senses name a thing, a person or what one owns (WordNet: under object, matter or possession:
 * "spends money on sailing" is not "spends weekends sailing"), not an abstraction.
 */
const isThing = (word: string) => isKindOf(word, ["object", "matter", "possession"]);
