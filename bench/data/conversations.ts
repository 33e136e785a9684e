import {
  chitchat,
  closers,
  type FactType,
  facts,
  interjections,
  openers,
  type QuestionCategory,
  slots,
  speakerNames,
  tags,
  unanswerable,
} from "./conversation-vocabulary";
import type { BenchQuery, GeneratedMemory, GeneratedUser } from "./generator";
import { Random } from "./random";

export interface ConversationQuery extends BenchQuery {
  category: QuestionCategory;
}

export interface ConversationUser extends GeneratedUser {
  queries: ConversationQuery[];
  /** Questions nothing in the conversation answers (`unanswerable`): their answer set is empty. */
  unanswerable: BenchQuery[];
  speakers: [string, string];
  sessions: number;
  /**
   * Which half of the dataset the user is in: weights and thresholds are chosen on "tune" and reported on "report"
   * (even and odd user numbers), so a figure on the report half is of data nothing was chosen on.
   */
  half: DatasetHalf;
}

export type DatasetHalf = "tune" | "report";

export interface ConversationScale {
  users: number;
  /** Sessions per user, inclusive range. */
  sessions: [number, number];
  /** Turns per session, inclusive range. */
  turns: [number, number];
  /** Facts told per user (each brings two to four questions), at most every fact type. */
  facts: number;
}

/**
 * How a turn becomes a memory: "Name: text" as conversational benchmarks store a dialogue turn, or the bare text
 * (the speaker's name then appears only where the other speaker says it).
 */
export type SpeakerStyle = "named" | "bare";

/** Targeted distractors per question: chatter by the same speaker that shares the most everyday question words. */
const DISTRACTORS_PER_QUESTION = 2;
const ECHO_CHANCE = 0.6;
const INTERJECTION_CHANCE = 0.25;
const TAG_CHANCE = 0.15;

type Role = "chat" | "opener" | "closer" | "lead-in" | "evidence" | "reaction" | "echo" | "distractor";

interface Turn {
  speaker: 0 | 1;
  role: Role;
  text?: string;
}

/**
 * One user's multi-session dialogue between two speakers (the user first) and the questions about it, a pure
 * function of (seed, index): the same conversation under both speaker styles. Each fact is stated once (an update
 * fact twice, sessions apart) by one speaker between the other's prompt and reaction; questions name that speaker
 * and have as answer set exactly the evidence turns; every other turn is chatter, some of it picked to share a
 * question's everyday words. Keys are `<user>-D<session>:<turn>`, both 1-based, like a benchmark's dialogue ids.
 */
export function generateConversation(
  seed: number,
  index: number,
  scale: ConversationScale,
  style: SpeakerStyle,
): ConversationUser {
  const name = `${style === "named" ? "conv" : "bare"}-${String(index + 1).padStart(2, "0")}`;
  const random = new Random(seed ^ Math.imul(index + 1, 0x9e3779b1));
  const speakers = random.sample(speakerNames, 2) as [string, string];
  const sessionCount = between(random, scale.sessions);
  const sessions: Turn[][] = Array.from({ length: sessionCount }, () => {
    const length = between(random, scale.turns);
    const first = random.int(2) as 0 | 1;
    return Array.from({ length }, (_, turn) => ({
      speaker: ((first + turn) % 2) as 0 | 1,
      role: turn === 0 ? "opener" : turn === length - 1 ? "closer" : "chat",
    }));
  });
  const fill = (template: string, values: Readonly<Record<string, string>>) =>
    template.replace(/\{(\w+)\}/g, (whole, slot: string) => values[slot] ?? pickSlot(random, slot) ?? whole);

  const pending: Array<{ fact: FactType; text: string; category: QuestionCategory; keys: string[]; owner: 0 | 1 }> = [];
  for (const fact of random.sample(facts, Math.min(scale.facts, facts.length))) {
    const owner = random.int(2) as 0 | 1;
    const values = { ...random.pick(fact.values), name: speakers[owner] };
    const steps = placeSteps(random, sessions, owner, fact.evidence.length);
    if (!steps) continue;
    const keys: string[] = [];
    steps.forEach(({ session, turn }, step) => {
      const turns = sessions[session] as Turn[];
      const texts = fact.evidence[step] as readonly string[];
      turns[turn] = { speaker: owner, role: "evidence", text: fill(random.pick(texts), values) };
      const before = turns[turn - 1] as Turn;
      if (step === 0 && before.role === "chat")
        turns[turn - 1] = { ...before, role: "lead-in", text: fill(random.pick(fact.leadIns), values) };
      const after = turns[turn + 1] as Turn;
      if (after.role === "chat")
        turns[turn + 1] = { ...after, role: "reaction", text: fill(random.pick(fact.reactions), values) };
      keys.push(keyOf(name, session, turn));
    });
    if (fact.echoes && random.chance(ECHO_CHANCE)) {
      const last = steps.at(-1) as { session: number };
      const spot = freeTurn(random, sessions, owner, last.session);
      if (spot) {
        const turns = sessions[spot.session] as Turn[];
        turns[spot.turn] = { speaker: owner, role: "echo", text: fill(random.pick(fact.echoes), values) };
      }
    }
    for (const question of fact.questions) {
      const answer = question.evidence ?? keys.map((_, step) => step);
      pending.push({
        fact,
        owner,
        category: question.category,
        text: fill(question.text, values),
        keys: answer.flatMap((step) => (keys[step] ? [keys[step] as string] : [])),
      });
    }
  }

  for (const question of pending) {
    for (const template of distractorsFor(random, question.text)) {
      const spot = freeTurn(random, sessions, question.owner, 0);
      if (!spot) break;
      (sessions[spot.session] as Turn[])[spot.turn] = { speaker: question.owner, role: "distractor", text: template };
    }
  }

  const deck: string[] = [];
  const chatter = () => {
    if (deck.length === 0) deck.push(...random.sample(chitchat, chitchat.length));
    return deck.pop() as string;
  };
  const memories: GeneratedMemory[] = [];
  sessions.forEach((turns, session) => {
    turns.forEach((turn, index) => {
      const other = { other: speakers[1 - turn.speaker] as string };
      const template =
        turn.role === "opener"
          ? random.pick(openers)
          : turn.role === "closer"
            ? random.pick(closers)
            : turn.role === "chat" || turn.role === "distractor"
              ? varied(random, turn.text ?? chatter())
              : (turn.text as string);
      const said = fill(template, other);
      const text = style === "named" ? `${speakers[turn.speaker]}: ${said}` : said;
      memories.push({ key: keyOf(name, session, index), kind: "memory", content: { content: text }, text });
    });
  });
  return {
    name,
    speakers,
    sessions: sessionCount,
    half: index % 2 === 0 ? "tune" : "report",
    unanswerable: unanswerableQuestions(seed, index, name, speakers),
    memories,
    queries: pending
      .filter((question) => question.keys.length > 0)
      .map(({ text, keys, category }) => ({ user: name, text, relevant: keys, category })),
  };
}

/**
 * Every unanswerable question once, about one of the speakers or about a name from the list who is not in the
 * conversation. Drawn from a generator of its own, so the conversation is the same with or without them.
 */
function unanswerableQuestions(seed: number, index: number, user: string, speakers: readonly string[]): BenchQuery[] {
  const random = new Random(seed ^ Math.imul(index + 1, 0x85ebca6b));
  const strangers = speakerNames.filter((name) => !speakers.includes(name));
  return unanswerable.map((template) => ({
    user,
    text: template.replace("{name}", random.pick(speakers)).replace("{stranger}", random.pick(strangers)),
    relevant: [],
  }));
}

/** Every user of a conversational scale, in both speaker styles or one. */
export function generateConversations(seed: number, scale: ConversationScale, style: SpeakerStyle): ConversationUser[] {
  return Array.from({ length: scale.users }, (_, index) => generateConversation(seed, index, scale, style));
}

/** Chatter with an occasional interjection before it or tag after it, so repeats are rarely word for word. */
function varied(random: Random, template: string): string {
  let text = template;
  if (
    random.chance(INTERJECTION_CHANCE) &&
    !/^(Honestly|Oh|Ha|So|Yeah|Okay|Anyway|Ugh|Really|Thanks|Hey)\b/.test(text)
  ) {
    const keepCase = /^(I\b|I'|\{)/.test(text);
    text = random.pick(interjections) + (keepCase ? text : text.charAt(0).toLowerCase() + text.slice(1));
  }
  if (random.chance(TAG_CHANCE)) text += random.pick(tags);
  return text;
}

const keyOf = (user: string, session: number, turn: number) => `${user}-D${session + 1}:${turn + 1}`;

const between = (random: Random, [low, high]: [number, number]) => low + random.int(high - low + 1);

function pickSlot(random: Random, slot: string): string | undefined {
  const options = slots[slot];
  return options ? random.pick(options) : undefined;
}

/** Evidence positions: a turn of `owner` with chatter on both sides; an update lands a quarter of the sessions later. */
function placeSteps(
  random: Random,
  sessions: Turn[][],
  owner: 0 | 1,
  steps: number,
): Array<{ session: number; turn: number }> | undefined {
  const gap = Math.max(2, Math.floor(sessions.length / 4));
  const placed: Array<{ session: number; turn: number }> = [];
  for (let step = 0; step < steps; step++) {
    const from = step === 0 ? 0 : (placed[step - 1] as { session: number }).session + gap;
    const to = step === 0 ? sessions.length - 1 - gap * (steps - 1) : sessions.length - 1;
    let spot: { session: number; turn: number } | undefined;
    for (let attempt = 0; attempt < 60 && !spot; attempt++) {
      if (to < from) return undefined;
      const session = from + random.int(to - from + 1);
      const turns = sessions[session] as Turn[];
      const turn = 1 + random.int(Math.max(1, turns.length - 2));
      const window = [turns[turn - 1], turns[turn], turns[turn + 1]];
      if (turns[turn]?.speaker === owner && window.every((t) => t?.role === "chat")) spot = { session, turn };
    }
    if (!spot) return undefined;
    placed.push(spot);
  }
  return placed;
}

/** A chatter turn of `speaker` in session `from` or later, to overwrite. */
function freeTurn(
  random: Random,
  sessions: Turn[][],
  speaker: 0 | 1,
  from: number,
): { session: number; turn: number } | undefined {
  for (let attempt = 0; attempt < 60; attempt++) {
    const session = from + random.int(sessions.length - from);
    const turns = sessions[session] as Turn[];
    const turn = random.int(turns.length);
    if (turns[turn]?.role === "chat" && turns[turn]?.speaker === speaker) return { session, turn };
  }
  return undefined;
}

const STOP = new Set(
  "the and for with what when where which who whom how why does did do has have had was were are is his her their this that from into about after before been being some any they them our you your just than then there these those".split(
    " ",
  ),
);

/** Content words, crudely stemmed (enough to tell which chatter shares a question's everyday words). */
function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[a-z']{3,}/g) ?? [];
  return new Set(
    words
      .map((word) => word.replace(/'s$/, ""))
      .filter((word) => !STOP.has(word))
      .map((word) => (word.length > 4 ? word.replace(/(ing|ed|es|s)$/, "") : word)),
  );
}

/** Chatter templates sharing the most content words with the question, picked among the best few. */
function distractorsFor(random: Random, question: string): string[] {
  const wanted = contentWords(question);
  const scored = chitchat
    .map((template) => ({
      template,
      overlap: [...contentWords(template)].filter((word) => wanted.has(word)).length,
    }))
    .filter((entry) => entry.overlap > 0)
    .sort((a, b) => b.overlap - a.overlap);
  const best = scored.slice(0, 6).map((entry) => entry.template);
  return random.sample(best, Math.min(DISTRACTORS_PER_QUESTION, best.length));
}
