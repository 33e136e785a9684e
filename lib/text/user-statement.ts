import { heldForAWhileOrAhead, isPast } from "@/lib/text/held-for-a-while";
import {
  baseForms,
  endsHolding,
  isBaseVerb,
  isBeginning,
  isOfFormerTime,
  isPlannedEvent,
  isReporting,
  isVerbForm,
} from "@/lib/text/word-kinds";

/**
 * A memory as a statement with the user as its subject, "User …", the shape the slot readers read (lib/text/slots.ts,
 * lib/text/standing-values.ts). Hosted managers also write a label and its value ("Location: Porto", "Occupation:
 * nurse"), leave the subject out ("Lives in Porto", "Works as a nurse"), or report it ("User mentioned they moved to
 * Porto", "User mentioned living in Porto"). Anything else is returned as written: a reader that cannot tell whose
 * fact it is reads nothing. Capitals are kept: the readers take a capital for a name.
 */
export function asUserStatement(text: string): string {
  const written = withoutManagersMarks(text);
  const words = written.split(/\s+/).filter(Boolean);
  if (words.length === 0) return text;
  const labelled = labelledStatement(words);
  if (labelled !== undefined) return labelled ?? text;
  if (opensWithTheUser(words)) return reported(words) ?? written;
  return withoutSubject(words) ?? text;
}

/**
 * A memory without the marks managers put around a statement (asManagersWrite) and without a hedge ("User appears to
 * live in Madrid" → "User lives in Madrid"), for readers that compare two memories' words (the offline consolidation).
 */
export function withoutManagersMarks(text: string): string {
  const written = asManagersWrite(text);
  const words = written.split(/\s+/).filter(Boolean);
  return (words.length > 0 && opensWithTheUser(words) && hedged(words)) || written;
}

/**
 * What managers write around a statement, put the way the readers read one: a bullet ("- hobby: …"), a key set with
 * "=" or "->" ("home_city=Porto", "job -> chef"), "the human" for the user (a persona block's word for them: "Human:
 * lives in Porto", "The human has…"), and a lead-in of when a value began ("As of this month, user's …").
 */
function asManagersWrite(text: string): string {
  return text
    .trim()
    .replace(BULLET, "")
    .replace(AS_OF, "")
    .replace(KEY_SET, "$1: ")
    .replace(HUMAN_LABEL, "User")
    .replace(THE_HUMAN, "The user");
}
const BULLET = /^[-*•]\s+/;
// A time now or past only: "As of next month, …", "As of tomorrow, …" say when a value will begin.
const AS_OF =
  /^as of (?:today|now|yesterday|recently|lately|(?:this|last) (?:week|month|year|spring|summer|autumn|fall|winter)),\s*/i;
const KEY_SET = /^([\p{L}_.]{1,30})\s*(?:=|->|→)\s*/u;
// "Human:", "Human's …", and "The human" before a word ending in "s" ("has", "works") or a modal: not "Human rights"
// or "The human body"; "The human rights lawyer" is read so too, and fills no slot either way.
const HUMAN_LABEL = /^human(?=:|'s\b)/i;
const THE_HUMAN = /^the human(?='s\b| (?:\w+s|will|would|can|could|may|might|should|must|did|had)\b)/i;

/** "User …", "User's …", "The user …". */
const opensWithTheUser = (words: string[]) =>
  /^(?:user|user's)$/i.test(words[0] ?? "") || (/^the$/i.test(words[0] ?? "") && /^user/i.test(words[1] ?? ""));

/**
 * Labels of one value the user holds now, and the statement each value makes. Any other label ("Previous job:",
 * "Hometown:", "Allergies:", "Sister:") may name a past, a place of origin, one of many or someone else's: not read.
 */
const LABELS: Record<string, (value: string) => string> = {
  location: (value) => `User lives in ${value}`,
  "current location": (value) => `User lives in ${value}`,
  home: (value) => `User lives in ${value}`,
  residence: (value) => `User lives in ${value}`,
  "current city": (value) => `User lives in ${value}`,
  "home city": (value) => `User lives in ${value}`,
  occupation: (value) => `User works as ${value}`,
  job: (value) => `User works as ${value}`,
  "current job": (value) => `User works as ${value}`,
  profession: (value) => `User works as ${value}`,
  "current role": (value) => `User works as ${value}`,
  employer: (value) => `User works at ${value}`,
  name: (value) => `User's name is ${value}`,
};

/**
 * "Location: Porto" → "User lives in Porto"; "Note: prefers dark mode" → "User prefers dark mode"; "Update: User moved
 * to Porto" → "User moved to Porto". `undefined`: no label; `null`: a label whose value is not read. A value with an
 * aside that limits it ("Location: Tokyo (on a business trip)", "Occupation: nurse (retired)") is not the user's now.
 */
function labelledStatement(words: string[]): string | null | undefined {
  const end = words.findIndex((word) => word.endsWith(":"));
  if (end < 0 || end > 2 || end === words.length - 1) return undefined;
  // A profile's keys are written "current_residence" or "preferences.units" as often as "Current residence".
  const label = words
    .slice(0, end + 1)
    .map((word) => word.replace(/:$/, "").replace(/[_.]/g, " ").toLowerCase())
    .join(" ");
  if (!/^[\p{L} -]+$/u.test(label)) return undefined;
  const value = words.slice(end + 1);
  // Every label of the table is of the value now: "current", "present" or "new" ("New job: teacher", written when it
  // changed) before one says it again.
  const now = label.replace(/^(?:present|new) /, "current ");
  const statement = LABELS[now] ?? LABELS[now.replace(/^current /, "")];
  if (statement) {
    const text = value.join(" ");
    const plain = text
      .replace(/\([^()]*\)/g, " ")
      .split(/\s+/)
      .filter(Boolean);
    return limits(text) || !aValue(plain) ? null : statement(plain.join(" "));
  }
  // A label that only introduces ("Note:", "Update:") leaves the statement after it; any other ("Sister:", "Goal:")
  // names whose it is or what kind, which the statement does not say.
  if (!NEUTRAL_LABELS.has(label)) return null;
  if (opensWithTheUser(value)) return asUserStatement(value.join(" "));
  return withoutSubject(value) ?? null;
}
// "User:" and "Human:" (put so by asManagersWrite) name whose statement follows: the user's.
const NEUTRAL_LABELS = new Set(["note", "notes", "update", "fyi", "info", "fact", "memory", "important", "user"]);

/**
 * A labelled value that is one: not a question or a choice ("Berlin?", "Berlin or Munich"), not opening with a
 * preposition, a gerund or a word for none ("at the office", "moving to Berlin", "looking for work", "unknown").
 */
function aValue(words: string[]): boolean {
  const first = words[0]?.toLowerCase() ?? "";
  // "Lyon -> Porto": a change written in the value, not one value.
  if (words.length === 0 || words.some((word) => word.includes("?") || /^(?:or|->|→)$/i.test(word))) return false;
  return !/^(?:at|in|on|to|from|for|with|unknown|none|tbd|not)$/.test(first) && !first.endsWith("ing");
}

/**
 * Whether a labelled value says it holds only for a while, held before, or beside another: "(on a business trip)",
 * "this week", "for the conference", "(until May)", "(retired)", "(part-time)". "(since college)" and "(relocated last
 * month)" do not.
 */
function limits(value: string, verb?: string): boolean {
  const words = value.toLowerCase().match(/[\p{L}-]+/gu) ?? [];
  // "ago" after weeks or months tells since when a beginning holds ("moved … a few weeks ago"); LIMITING reads years.
  const former = (word: string) => word !== "ago" && isOfFormerTime(word);
  return (
    LIMITING.test(value) ||
    // The reported verb tells a perfect ("they have lived in Berlin for eight months": how long so far).
    heldForAWhileOrAhead(verb ? [verb, ...words] : words) ||
    words.some(
      (word, at) => former(word) || isPlannedEvent(word) || word === "trip" || endsHolding(word, words[at + 1]),
    )
  );
}

/**
 * Whether words said beside a value (an aside after ";", a bracket) limit it: they open with a word of a limit (";
 * retired", "(part-time)", "; on a business trip", "(until May)"), or say the value was left ("(started 2015, left
 * 2020)"). Not any word a label's value is read by: an aside may name another place or time of its own ("; moved from
 * Porto", "(originally from Mumbai)", "; planning a trip to Japan", "; not a fan of night shifts").
 */
export function limitsAValue(aside: string): boolean {
  const words = aside.toLowerCase().match(/[\p{L}-]+/gu) ?? [];
  return ASIDE_LIMIT.test(aside) || words.some((word, at) => endsHolding(word, words[at + 1]));
}
const ASIDE_LIMIT =
  /^\s*(?:(?:just\s+)?kidding|joking|jk|until|till|temporar\w*|for now|for the (?:summer|winter|season|semester|time being)|on (?:a |an )?(?:[\p{L}-]+ )?(?:trip|visit|holiday|vacation|leave|assignment|secondment)|visiting|retired|part-time|former(?:ly)?|no longer|not anymore|used to|laid off|contract|internship|interim|acting)\b/iu;
// Words that limit a label's value or a report's; heldForAWhileOrAhead reads the limits of time a statement has too.
// A value has no predicate to tell "until they find a place" from "until further notice", or what is "temporary":
// here any "until" or "temporary" limits. A start yet to come limits ("starting next month"); one that came holds
// ("started three weeks ago", as "moved … ago" does).
const LIMITING =
  /\b(?:until|till|temporar\w*|visit\w*|travel\w*|vacation|holiday|part-time|side|volunteer\w*|retired|former\w*|previous\w*|not|no longer|from|start(?:s|ing)?|plan\w*|maybe|moving|quit|laid off|ex|leave|never|next|years? ago|decades? ago|before|while|as a child|semester|contract|placement|internship|stint)\b/i;

/**
 * "Lives in Porto", "Is a nurse", "Now works as a chef": a verb of the third person opens the statement, after an
 * adverb of now at most, so the user is its subject. A noun in the plural before a verb ("Parents live in Porto") is a
 * subject of its own. A verb of the past is read so only for a beginning said to be recent ("Moved to Madrid last
 * month", "Just started working as a plumber"), which holds now. Else it is not ("Moved to Porto as a child",
 * "Declined a job as a pilot", "Worked as a waiter"): the readers weigh what a statement says about now, and a
 * narrated event mostly says nothing.
 */
function withoutSubject(words: string[]): string | undefined {
  const at = words.findIndex((word) => !RECENT_OR_NOW.has(word.toLowerCase()));
  if (at < 0) return undefined;
  const first = words[at]!.toLowerCase();
  const next = words[at + 1]?.toLowerCase() ?? "";
  const before = words.slice(0, at).map((word) => word.toLowerCase());
  const present = THIRD_PERSON_BEING.has(first) || (/s$/.test(first) && isVerbForm(first) && !isBaseVerb(next));
  const begunLately =
    isPast(first) &&
    isBeginning(first) &&
    (before.some((word) => RECENTLY.has(word)) || LATELY.test(words.join(" ").toLowerCase()));
  if (!present && !begunLately) return undefined;
  return ["User", ...before, first, ...words.slice(at + 1)].join(" ");
}
/** A time a few days, weeks or months back: "last month", "three weeks ago", "this year"; not "years ago". */
const LATELY =
  /\b(?:recently|lately|yesterday|(?:last|this) (?:week|weekend|month|year|spring|summer|autumn|fall|winter)|(?:a|one|two|three|four|five|six|a few|a couple of|several|\d+) (?:days?|weeks?|months?) ago)\b/;

/**
 * Adverbs of now that may come before the verb of a statement without a subject ("Now works as a chef"): the ones the
 * slot patterns take after "user" (lib/text/slots.ts, SINGLE_VALUED), so a statement put here reads as one said so.
 * Those patterns are literals (tests/security/redos.test.ts checks every one), so they cannot be built from this list;
 * tests/unit/slot-readers.test.ts reads a home and a job after each adverb here instead.
 */
export const NOW_ADVERBS: ReadonlySet<string> = new Set(["now", "currently", "still"]);

/**
 * "User mentioned (that) they moved to Porto" → "User moved to Porto"; "User said they live in Porto" → "User lives in
 * Porto"; "User mentioned living in Porto" → "User lives in Porto": who said it is not the fact. A gerund is read
 * only of holding a home or a job: "mentioned moving to Porto" may be a plan, "having lived" or "being" a past.
 */
function reported(words: string[]): string | undefined {
  const at = words[0]!.toLowerCase() === "the" ? 2 : 1;
  if (words[at - 1]!.toLowerCase() !== "user" || !isReporting(words[at]?.toLowerCase() ?? "")) return undefined;
  let rest = at + 1;
  if (words[rest]?.toLowerCase() === "that") rest += 1;
  const pronoun = /^(?:they|he|she)$/i.test(words[rest] ?? "");
  if (pronoun) rest += 1;
  // "… that they recently became a chef": the adverb stays with the verb.
  const adverbs = pronoun ? leadingAdverbs(words, rest, RECENT_OR_NOW) : [];
  rest += adverbs.length;
  const verb = words[rest]?.toLowerCase() ?? "";
  if (!isVerbForm(verb)) return undefined;
  // "… living in Lyon years ago", "… moved to Lyon for a semester": a report of what held for a while or before.
  if (limits(words.slice(rest + 1).join(" "), verb)) return undefined;
  if (!pronoun) {
    const holding = baseForms(verb).find((form) => HOLDING.has(form));
    return verb.endsWith("ing") && holding
      ? ["User", thirdPerson(holding), ...words.slice(rest + 1)].join(" ")
      : undefined;
  }
  const spoken = isBaseVerb(verb) || PLURAL_PRESENT.has(verb) ? thirdPerson(baseForms(verb)[0] ?? verb) : verb;
  return ["User", ...adverbs, spoken, ...words.slice(rest + 1)].join(" ");
}

/**
 * "User appears to live in Madrid" → "User lives in Madrid"; "User seems to be settled in Seville" → "User is settled
 * in Seville": a manager's hedge is no limit on the fact.
 */
function hedged(words: string[]): string | undefined {
  const at = words[0]!.toLowerCase() === "the" ? 2 : 1;
  if (words[at - 1]!.toLowerCase() !== "user" || !HEDGES.has(words[at]?.toLowerCase() ?? "")) return undefined;
  if (words[at + 1]?.toLowerCase() !== "to") return undefined;
  const adverbs = leadingAdverbs(words, at + 2, HEDGED_ADVERBS);
  const verb = words[at + 2 + adverbs.length]?.toLowerCase() ?? "";
  if (!isBaseVerb(verb)) return undefined;
  return ["User", ...adverbs, thirdPerson(verb), ...words.slice(at + 3 + adverbs.length)].join(" ");
}
const HEDGES = new Set(["appears", "seems"]);

/** The words of `adverbs` from `from` on: "still", "now", "recently" ("… they recently became"), "really". */
function leadingAdverbs(words: string[], from: number, adverbs: ReadonlySet<string>): string[] {
  const found: string[] = [];
  while (adverbs.has(words[from + found.length]?.toLowerCase() ?? "")) found.push(words[from + found.length]!);
  return found;
}
/** Adverbs of a recent past before a verb ("Just started …", "Recently moved …"), as the slot patterns take them. */
const RECENTLY: ReadonlySet<string> = new Set(["recently", "just"]);
const RECENT_OR_NOW = new Set([...NOW_ADVERBS, ...RECENTLY]);
/** After a hedge the fact may be stressed too: "seems to really enjoy". */
const HEDGED_ADVERBS = new Set([...RECENT_OR_NOW, "really", "truly"]);

/** Verbs of holding a home or a job, the gerunds a report is read by ("mentioned living in", "working as"). */
const HOLDING = new Set(["live", "work", "reside"]);

/** "Is a nurse", "Has a dog": the verbs of being and having in the third person, which WordNet does not inflect. */
const THIRD_PERSON_BEING = new Set(["is", "has", "was", "does"]);

/** Forms of the present that agree with "they" and are not the base form. */
const PLURAL_PRESENT = new Set(["are"]);

function thirdPerson(base: string): string {
  const irregular: Record<string, string> = { be: "is", are: "is", have: "has", do: "does", go: "goes" };
  if (irregular[base]) return irregular[base];
  if (/(?:s|sh|ch|x|z|o)$/.test(base)) return `${base}es`;
  if (/[^aeiou]y$/.test(base)) return `${base.slice(0, -1)}ies`;
  return `${base}s`;
}
