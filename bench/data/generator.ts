import { defaultKinds, prepareContent } from "@/lib/memory/core";
import { Random, withTypo } from "./random";
import {
  chores,
  type GeneratedKind,
  habits,
  outcomes,
  people,
  places,
  subjects,
  type Topic,
  topics,
  weekdays,
} from "./vocabulary";

export interface GeneratedMemory {
  /** `<user>-<n>`: unique across the dataset, so every store can tell whose row a result is. */
  key: string;
  kind: GeneratedKind;
  content: Record<string, string>;
  /** The searchable rendering, exactly as Memory Ledger renders this kind. */
  text: string;
}

export interface BenchQuery {
  user: string;
  text: string;
  /** Keys of the user's memories about the asked topic: the answer set recall is measured against. */
  relevant: string[];
}

export interface GeneratedUser {
  name: string;
  memories: GeneratedMemory[];
  queries: BenchQuery[];
}

export interface UserSpec {
  /** Numeric names (`1`, `10`, …) so that one user's namespace path is a string prefix of another's. */
  name: string;
  memories: number;
}

const TYPO_IN_FACT = 0.15;
const TYPO_IN_FILLER = 0.05;
const TYPO_IN_QUESTION = 0.2;

/**
 * One user's memories and questions, a pure function of (seed, user): every topic fact stated one to three times in
 * different words (sometimes with a typo), hidden among filler notes, meetings, chores and habits; then one question
 * per sampled topic whose relevant set is exactly that topic's statements.
 */
export function generateUser(seed: number, spec: UserSpec, questions: number): GeneratedUser {
  const random = new Random(seed ^ hashName(spec.name));
  const facts = topics.flatMap((topic) => topicFacts(random, topic));
  const fillerCount = Math.max(0, spec.memories - facts.length);
  const drafts: Draft[] = Array.from({ length: fillerCount }, () => filler(random));
  for (const fact of facts.slice(0, spec.memories)) drafts.splice(random.int(drafts.length + 1), 0, fact);
  const memories = drafts.map((draft, index) => toMemory(spec.name, index, draft));
  const queries = random.sample(topics, Math.min(questions, topics.length)).map((topic) => ({
    user: spec.name,
    text: maybeTypo(random, random.pick(topic.questions), TYPO_IN_QUESTION),
    relevant: memories.filter((_, index) => drafts[index]?.topic === topic.name).map((memory) => memory.key),
  }));
  return { name: spec.name, memories, queries: queries.filter((query) => query.relevant.length > 0) };
}

interface Draft {
  kind: GeneratedKind;
  content: Record<string, string>;
  topic?: string;
}

function topicFacts(random: Random, topic: Topic): Draft[] {
  const value = random.pick(topic.values);
  const statements = random.sample(topic.statements, 1 + random.int(topic.statements.length));
  return statements.map((statement) => ({
    kind: topic.kind,
    topic: topic.name,
    content: contentFor(topic.kind, maybeTypo(random, statement.replace("{v}", value), TYPO_IN_FACT), topic.name),
  }));
}

function contentFor(kind: GeneratedKind, sentence: string, subject: string): Record<string, string> {
  switch (kind) {
    case "preference":
      return { subject, preference: sentence };
    case "procedure":
      return { rule: sentence };
    case "episode":
      return {
        observation: sentence,
        thoughts: "Worth keeping in mind",
        action: "Noted the plan",
        result: "Confirmed",
      };
    case "memory":
      return { content: sentence };
  }
}

function filler(random: Random): Draft {
  const person = random.pick(people);
  const subject = random.pick(subjects);
  const typo = (sentence: string) => maybeTypo(random, sentence, TYPO_IN_FILLER);
  switch (random.int(4)) {
    case 0:
      return {
        kind: "episode",
        content: {
          observation: typo(`Met ${person} at ${random.pick(places)} on ${random.pick(weekdays)} about ${subject}`),
          thoughts: typo(`${person} wants progress on ${subject}`),
          action: `Took notes with ${person}`,
          result: random.pick(outcomes),
        },
      };
    case 1:
      return {
        kind: "memory",
        content: {
          content: typo(
            random.chance(0.5)
              ? `${person} owns ${subject}`
              : `Needs to ${random.pick(chores)} before ${random.pick(weekdays)}`,
          ),
        },
      };
    case 2:
      return {
        kind: "preference",
        content: {
          subject: "work",
          preference: typo(`${random.chance(0.7) ? "Prefers" : "Dislikes"} ${random.pick(habits)}`),
        },
      };
    default:
      return {
        kind: "procedure",
        content: { rule: typo(`When ${person} asks about ${subject}, share the latest notes`) },
      };
  }
}

function toMemory(user: string, index: number, draft: Draft): GeneratedMemory {
  const { text } = prepareContent(defaultKinds, draft.kind, draft.content);
  return { key: `${user}-${index}`, kind: draft.kind, content: draft.content, text };
}

const maybeTypo = (random: Random, sentence: string, probability: number) =>
  random.chance(probability) ? withTypo(random, sentence) : sentence;

/** FNV-1a: decorrelates the per-user streams derived from one seed. */
function hashName(name: string): number {
  let hash = 0x811c9dc5;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash >>> 0;
}

/** Whose memory a key is (keys are `<user>-<n>`). */
export const ownerOfKey = (key: string): string => key.slice(0, key.lastIndexOf("-"));
