import irregularVerbs from "wink-lexicon/src/irregular-verbs.js";
import { processState } from "@/lib/process-state";
import { adjectiveGlosses, adverbGlosses, isVerb, lemmaOf, nouns, verbGlosses } from "@/lib/text/wordnet";

/**
 * What kind of thing a word names, by WordNet (lib/text/wordnet.ts), for the slot rules (lib/text/slots.ts): an
 * occupation is a noun whose usual senses lie under a worker, a professional, a creator ("architect"), a businessperson
 * ("baker"), an engineer or a scientist; a relative, an eater or a fan is none ("mother", "vegetarian").
 */
const OCCUPATIONS = ["worker", "professional", "creator", "businessperson", "engineer", "scientist"];
/** WordNet's "time period" (its single-word lemma): weekends, evenings, summers, Sundays. */
const TIME_PERIODS = ["period"];
/** Senses looked at, most frequent first: a word's rare senses ("pilot" as a television pilot) do not count. */
const USUAL_SENSES = 2;
/** Links walked upwards at most: "dentist" reaches "professional" in three, WordNet's deepest chains in under 20. */
const MAX_DEPTH = 20;

/**
 * WordNet's feelings of wanting or delighting in something ("fondness" is a liking, "devotion" a love, "joy" a
 * pleasure, "passion" and "enthusiasm" their own synsets) and the people who have them ("fan" and "buff" are devotees,
 * "aficionado" an enthusiast); "hate" and "dislike" lie under none, so a liking never reads as its opposite.
 */
const LIKINGS = ["liking", "love", "passion", "enthusiasm", "pleasure", "enthusiast", "devotee"];
/**
 * Events one goes to on a day, which a date makes a plan that passes ("concert" is a show, "conference" a meeting,
 * "trip" a journey, "match" a contest, "festival" a celebration); a ceremony ("wedding") or a birth is not one. Not
 * WordNet's gatherings, tests or lessons: they hold a council, a community, a class one is in and a free trial, which
 * last past the day they begin.
 */
const PLANNED_EVENTS = ["show", "meeting", "journey", "contest", "celebration"];

export const isOccupation = (word: string) => isKindOf(word, OCCUPATIONS);
export const isTimePeriod = (word: string) => isKindOf(word, TIME_PERIODS);
export const isLikingNoun = (word: string) => isKindOf(word, LIKINGS);
export const isPlannedEvent = (word: string) => isKindOf(word, PLANNED_EVENTS);
/** A noun whose usual senses lie under a home or a dwelling ("home" is a residence, "house" and "flat" dwellings). */
export const isDwelling = (word: string) => isKindOf(word, ["residence", "dwelling"]);
/** A noun for a person, a possessive one too ("sister's", "parents'"): someone other than the user when said. */
export const isPersonWord = (word: string) => isKindOf(word.replace(/(?:'s|s')$/, ""), ["person"]);

/** Whether one of the noun's usual senses lies under a synset holding one of `kinds` (kept per process). */
export function isKindOf(word: string, kinds: readonly string[]): boolean {
  return remembered("wordnet-kinds", `${kinds.join(",")}:${word}`, () => walkUp(word.toLowerCase(), new Set(kinds)));
}

/** Whether any sense of the noun, however rare, lies under one of `kinds` ("flat" is an apartment in its fourth). */
export function mayBeKindOf(word: string, kinds: readonly string[]): boolean {
  return remembered("wordnet-any-kinds", `${kinds.join(",")}:${word}`, () =>
    walkUp(word.toLowerCase(), new Set(kinds), Number.POSITIVE_INFINITY),
  );
}

/** An answer about a word, kept per process under `key` in the map named `name` (at most 50,000 per map). */
function remembered(name: string, key: string, answer: () => boolean): boolean {
  const answers = processState(name, () => new Map<string, boolean>());
  let known = answers.get(key);
  if (known === undefined) {
    known = answer();
    if (answers.size > 50_000) answers.clear();
    answers.set(key, known);
  }
  return known;
}

/** Whether one of the first `senses` senses of one of the verbs `lemmas` has a definition matching `gloss`. */
/**
 * Whether one of the first `senses` senses of the verb, in any of its forms ("bought" → buy, "renting" → rent), has a
 * definition matching `gloss`.
 */
export function verbSenseMatches(word: string, gloss: RegExp, senses: number): boolean {
  return hasSense(baseForms(word.toLowerCase()), gloss, senses);
}

/** A class of verbs defined by their senses' definitions (verbSenseMatches), each answer kept per process as `name`. */
const verbsDefinedBy = (name: string, gloss: RegExp, senses: number) => (word: string) =>
  remembered(name, word.toLowerCase(), () => verbSenseMatches(word, gloss, senses));

/**
 * verbsDefinedBy for a verb in any form, an irregular one too ("left", "lost"), alone or with the particle after it
 * that makes it a verb of its own ("gave up", "turned down").
 */
const phrasalVerbsDefinedBy =
  (name: string, gloss: RegExp, senses: number) =>
  (word: string, next = ""): boolean =>
    remembered(name, `${word} ${next}`.toLowerCase(), () => {
      const lemmas = baseForms(word.toLowerCase());
      const particle = next.toLowerCase();
      const phrasal = PARTICLES.has(particle) ? lemmas.map((lemma) => `${lemma}_${particle}`) : [];
      return hasSense([...lemmas, ...phrasal], gloss, senses);
    });

function hasSense(lemmas: readonly string[], gloss: RegExp, senses: number): boolean {
  return lemmas.some((lemma) =>
    verbGlosses(lemma)
      .slice(0, senses)
      .some((definition) => gloss.test(definition)),
  );
}

function walkUp(word: string, kinds: ReadonlySet<string>, senses = USUAL_SENSES): boolean {
  const { index, synsetAt } = nouns();
  const lemma = lemmaOf(word, index);
  if (!lemma) return false;
  let level = (index.get(lemma) ?? []).slice(0, senses);
  const seen = new Set(level);
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: number[] = [];
    for (const offset of level) {
      const synset = synsetAt(offset);
      if (synset.words.some((candidate) => kinds.has(candidate))) return true;
      for (const above of synset.broader) {
        if (!seen.has(above)) {
          seen.add(above);
          next.push(above);
        }
      }
    }
    level = next;
  }
  return false;
}

/**
 * A verb of where one lives: one of its usual senses is defined by residence ("live": "be an inhabitant of or reside
 * in", "settle": "take up residence and become established", "move": "change residence, affiliation…"), in any of its
 * inflected forms ("lives", "settled", "staying").
 */
const RESIDENCE_GLOSS = /\b(?:resides?|residence|residency|inhabitant|make one's home|dwell)\b/;
const RESIDENCE_SENSES = 5;

export function isResidenceVerb(word: string): boolean {
  const lower = word.toLowerCase();
  return remembered("wordnet-residence-verbs", lower, () =>
    hasSense(verbLemmas(lower), RESIDENCE_GLOSS, RESIDENCE_SENSES),
  );
}

/** Whether the verb's most frequent sense is living somewhere ("live", "reside"; not "move" or "stay"). */
export function residenceIsFirstSense(word: string): boolean {
  return hasSense(verbLemmas(word.toLowerCase()), RESIDENCE_GLOSS, 1);
}

/**
 * Whether one of the verb's usual senses is taking up a new residence ("settle": "take up residence and become
 * established", "move": "change residence…", "emigrate": "leave one's country of residence for a new one"). Its past
 * tells where one lives now; the past of any other verb of residence tells where one used to live ("lived") or stayed
 * for a while ("stayed": "dwell" is only its third sense).
 */
const NEW_RESIDENCE = /\b(?:take up|change|new) residen(?:ce|cy)\b|\bresidence for a new\b/;

export function takesUpResidence(word: string): boolean {
  return hasSense(verbLemmas(word.toLowerCase()), NEW_RESIDENCE, RESIDENCE_SENSES);
}

/**
 * A verb of liking: one of its two usual senses is defined by pleasure, fondness or affection ("enjoy": "derive or
 * receive pleasure from", "cherish": "be fond of", "adore": "love intensely"); "hate" ("dislike intensely") is none.
 */
// Not "for pleasure": "hike" is "walk a long way, as for pleasure…", a thing done, not a liking.
const LIKING_GLOSS = /\b(?<!for )(?:pleasure|fond|affection|liking|love|enjoyable)\b/;

export function isLikingVerb(word: string): boolean {
  const lower = word.toLowerCase();
  return remembered("wordnet-liking-verbs", lower, () => hasSense(verbLemmas(lower), LIKING_GLOSS, 2));
}

/**
 * An adjective of eager attitude towards a thing: one of its two usual senses is defined by interest, enthusiasm,
 * devotion, concern with it or dependence on it ("obsessed": "having or showing excessive or compulsive concern with
 * something", "hooked": "addicted to a drug", "avid", "enthusiastic", "devoted"), and neither by fear, anger, worry,
 * weariness or lack of interest ("afraid", "mad": "roused to anger", "bored": "uninterested because of…", "nervous").
 * "is obsessed with sailing" frames a liking as "loves sailing" does.
 */
const ATTITUDE_GLOSS =
  /\b(?:interest\w*|enthusias\w*|excite\w*|affection|devot\w*|zeal\w*|concern with|desirous|passion\w*|addict\w*|dependent|joy|pleasure)\b/;
const AVERSE_GLOSS =
  /\b(?:fear\w*|anger|anxi\w*|tired|uninterested|worr\w*|regret|pain|sick|insecur\w*|upset|harm\w*|afraid)\b/;

export function isAttitudeAdjective(word: string): boolean {
  const lower = word.toLowerCase();
  return remembered("wordnet-attitude-adjectives", lower, () => {
    const senses = adjectiveGlosses(adjectiveBase(lower)).slice(0, 2);
    const eager = (gloss: string) => ATTITUDE_GLOSS.test(gloss) && !LACKING_GLOSS.test(gloss);
    return senses.some(eager) && !senses.some((gloss) => AVERSE_GLOSS.test(gloss) || LACKING_GLOSS.test(gloss));
  });
}

/** An adjective's base for its degrees, as WordNet lists it: "happiest" → happy, "keener" → keen. */
export function adjectiveBase(word: string): string {
  if (adjectiveGlosses(word).length > 0 || !/(?:est|er)$/.test(word)) return word;
  const stem = word.replace(/(?:est|er)$/, "");
  const forms = [stem.replace(/i$/, "y"), stem, `${stem}e`, stem.replace(/(.)\1$/, "$1")];
  return forms.find((form) => adjectiveGlosses(form).length > 0) ?? word;
}

/** A sense that denies the attitude it names: "indifferent", "marked by a lack of interest"; "lukewarm", "little". */
const LACKING_GLOSS = /\b(?:lack\w*|little|no|not|without|less)\b/;

/** A day that comes back every year: a noun under WordNet's anniversary ("birthday", "jubilee"). */
export const isRecurringDay = (word: string) => isKindOf(word, ["anniversary"]);

/**
 * A verb of reporting what was said: one of its two usual senses is saying or mentioning ("mention": "make reference
 * to", "say": "express in words", "note": "make mention of", "report"). "User mentioned that they…" tells who said
 * it, not a fact of its own.
 */
const REPORTING_GLOSS =
  /\b(?:express\w* in words|make (?:reference|mention)|state or say|to say|give an account|let something be known)\b/;

export const isReporting = verbsDefinedBy("wordnet-reporting-verbs", REPORTING_GLOSS, 2);

/**
 * A verb of judging: one of its five usual senses is deeming or coming to believe ("consider", "regard": "deem to be",
 * "find": "come to believe on the basis of emotion…"). "User finds sailing relaxing" is the user's view, as "User
 * loves sailing" is; the word after it says which.
 */
const JUDGING_GLOSS = /\b(?:deem to be|judge or regard|come to believe)\b/;

export const isJudging = verbsDefinedBy("wordnet-judging-verbs", JUDGING_GLOSS, 5);

/**
 * A verb of going on as before: one of its two usual senses is continuing or staying the same ("remain": "stay the
 * same", "continue": "continue a certain state, condition, or activity", "keep"). "Sailing remains the user's
 * favourite pastime" says the liking holds on.
 */
const CONTINUING_GLOSS = /\b(?:continue|stay the same)\b/;

export const isContinuing = verbsDefinedBy("wordnet-continuing-verbs", CONTINUING_GLOSS, 2);

/**
 * A verb of easing off: one of its senses is resting or taking one's ease ("relax", "unwind": "become less tense,
 * rest, or take one's ease", the third sense of "unwind"). "goes sailing to unwind" frames a habit as a liking does.
 */
const EASING_GLOSS = /\b(?:take one's ease|less tense, rest|in order to relax)\b/;

export const isEasing = verbsDefinedBy("wordnet-easing-verbs", EASING_GLOSS, 4);

/**
 * A verb of beginning what lasts: one of its two usual senses is beginning, joining or becoming ("start": "take the
 * first step or steps in carrying out an action", "join": "become part of…"), or taking up a new residence ("move").
 */
const BEGINNING_GLOSS = /\b(?:begin|first step|set in motion|become|take up)\b/;

export function isBeginning(word: string): boolean {
  const lower = word.toLowerCase();
  return remembered("wordnet-beginning-verbs", lower, () => {
    const lemmas = baseForms(lower);
    return hasSense(lemmas, BEGINNING_GLOSS, 2) || takesUpResidence(lower);
  });
}

/**
 * A verb of working for pay or training for a profession: one of its two usual senses says so ("earn": "earn on some
 * commercial or business transaction", "train": "undergo training … for a particular role, function, or profession",
 * "hire": "engage or hire for work"), or, with "re-", the verb it repeats ("retrain"). "volunteer" ("do volunteer
 * work") and "serve" are neither.
 */
const WORK_GLOSS = /\b(?:salary|wages|commercial|business|profession|employ\w*|occupation|for work)\b/;

export function isWorkVerb(word: string): boolean {
  const lower = word.toLowerCase();
  return remembered("wordnet-work-verbs", lower, () => {
    const lemmas = verbLemmas(lower);
    const repeated = lemmas.flatMap((lemma) => (lemma.startsWith("re") && lemma.length > 4 ? [lemma.slice(2)] : []));
    return hasSense([...lemmas, ...repeated], WORK_GLOSS, 2);
  });
}

/**
 * A verb of ending what one holds (a job, a post): one of its usual senses is ending, leaving, losing or
 * retiring ("quit": "put an end to a state or an activity", "leave": "go away from a place", "lose": "fail to keep or
 * to maintain", "retire": "go into retirement", "fire": "terminate the employment of"), in any form, an irregular one
 * too ("left", "lost"), or with the particle that makes it one ("gave up", "laid off", "stepped down"). Broader words
 * ("stop", "an end", "leave") would take verbs of keeping or starting too: "keep" is "stop (someone) from doing
 * something", "settle" "bring to an end" (a dispute), "start" "leave".
 */
const ENDING =
  /\b(?:put an end|go away|depart|give up|leave \(a job|fail to keep|retire|retirement|terminate|stop work|cease)\b/;
const ENDING_SENSES = 5;
const PARTICLES = new Set(["up", "off", "down", "out", "away"]);

export const endsHolding = phrasalVerbsDefinedBy("wordnet-ending-verbs", ENDING, ENDING_SENSES);

/**
 * "declined a job as a pilot", "turned down an offer", "rejected the flat in Porto": a verb of refusing whose object,
 * within the next four words, is a job, an offer or a home. What the user turned down is no value they hold; "declined
 * to comment", "turned down the music" say nothing of one.
 */
export function turnsDown(words: readonly string[], at: number): boolean {
  if (!refusesIt(words[at]!, words[at + 1])) return false;
  return words
    .slice(at + 1, at + 5)
    .some((word) => isKindOf(word, ["occupation"]) || /^offers?$/.test(word) || isDwelling(word));
}

/**
 * A verb of refusing what was offered: one of its two usual senses is refusing to accept it ("decline", "reject",
 * "refuse", "turn down", "pass up"), in any form or with the particle that makes it one.
 */
const refusesIt = phrasalVerbsDefinedBy("wordnet-refusing-verbs", /\b(?:refuse to accept|show unwillingness)\b/, 2);

/**
 * An adverb of former time, by one of its usual senses ("formerly": "at a previous time", "previously": "at an
 * earlier time or formerly", "once": "at a previous time" as its third): what it says held then no longer holds.
 */
const FORMER_TIME = /\b(?:previous|formerly|earlier in time|in the past)\b/;
const ADVERB_SENSES = 3;

export function isOfFormerTime(word: string): boolean {
  return adverbGlosses(word.toLowerCase())
    .slice(0, ADVERB_SENSES)
    .some((gloss) => FORMER_TIME.test(gloss));
}

/** Whether the word is a form of a verb WordNet knows ("gets", "takes", "finds"). */
export function isVerbForm(word: string): boolean {
  return baseForms(word.toLowerCase()).some(isVerb);
}

/** A verb in its base form ("live", "go", "try"), not one inflected ("lives", "worked", "living"). */
export function isBaseVerb(word: string): boolean {
  const lower = word.toLowerCase();
  // A verb WordNet has as it is, not the past of another ("came", "became", "found": the irregular list, or a prefix
  // and it, gives another verb). The list's "have" gives "has", no verb of WordNet's, so "have" is a base.
  const irregular = irregularVerbs[lower] ?? prefixedIrregular(lower);
  const pastOfAnother = irregular !== undefined && irregular !== lower && isVerb(irregular);
  return isVerb(lower) && !pastOfAnother && !/(?:ing|ed)$/.test(lower);
}

/**
 * An adverb of how often, by one of its two usual senses ("often", "frequently": "many times at short intervals",
 * "regularly": "in a regular manner", "always": "at all times", "usually": "under normal conditions"): it tells a habit. One that says "not" ("rarely": "not often") or
 * "no" ("never": "at no time") tells its opposite.
 */
const FREQUENCY =
  /\b(?:many times|all times|normal conditions|regular|habitual|customar\w*|usual|frequent\w*|often|repeatedly)\b/;
const NEGATED_GLOSS = /\b(?:not|no|never|seldom)\b/;

export function isOfFrequency(word: string): boolean {
  return (
    adverbGlosses(word.toLowerCase())
      .slice(0, 2)
      // A gloss's aside is about usage, not sense: "all" is "to a complete degree (`whole' is often used…)".
      .map((gloss) => gloss.replace(/\([^()]*\)/g, ""))
      .some((gloss) => FREQUENCY.test(gloss) && !NEGATED_GLOSS.test(gloss))
  );
}

/** A verb's base forms: the regular ones verbLemmas gives and, for an irregular form, its base ("left" → leave). */
export function baseForms(word: string): string[] {
  const irregular = irregularVerbs[word] ?? prefixedIrregular(word);
  return irregular ? [...verbLemmas(word), irregular] : verbLemmas(word);
}

/**
 * The base of an irregular past made of a prefix and one the list holds ("became" → "become", "understood" →
 * "understand", "withdrew" → "withdraw"), which the list leaves out; only when WordNet has the verb so made.
 */
function prefixedIrregular(word: string): string | undefined {
  for (const prefix of VERB_PREFIXES) {
    const base = word.startsWith(prefix) ? irregularVerbs[word.slice(prefix.length)] : undefined;
    if (base && isVerb(prefix + base)) return prefix + base;
  }
  return undefined;
}
const VERB_PREFIXES = ["be", "over", "under", "with", "mis", "for", "fore", "re", "un", "out", "up"];

/** The base forms an inflected verb may have: "lives" → live, "moved" → move, "settled" → settle, "stays" → stay. */
function verbLemmas(word: string): string[] {
  const forms = [word];
  for (const [ending, replacements] of INFLECTIONS) {
    if (!word.endsWith(ending) || word.length <= ending.length + 1) continue;
    const stem = word.slice(0, -ending.length);
    for (const replacement of replacements) forms.push(stem + replacement);
    // "stopped", "running": a doubled last consonant.
    if (/([^aeiou])\1$/.test(stem)) forms.push(stem.slice(0, -1));
  }
  return forms;
}

const INFLECTIONS: Array<[string, string[]]> = [
  ["ies", ["y"]],
  ["es", ["", "e"]],
  ["s", [""]],
  ["ied", ["y"]],
  ["ed", ["", "e"]],
  ["ing", ["", "e"]],
];
