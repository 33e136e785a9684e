import type { ConversationScale } from "./conversations";
import type { UserSpec } from "./generator";

export type ScaleName = "smoke" | "10k" | "100k" | "1m";

export interface Scale {
  name: ScaleName;
  users: UserSpec[];
  /** Questions asked per querying user. */
  questionsPerUser: number;
  /** Users whose questions are timed, per memories-per-user bucket (the lowest-numbered, so user `1` is among them). */
  queryUsersPerBucket: number;
  /** The conversational dataset of the recall suite (one memory per dialogue turn). */
  conversations: ConversationScale;
}

/** About 750 turns per user (30 sessions of 25), every fact type told: 550-600 questions over 10 users. */
const CONVERSATIONS: ConversationScale = { users: 10, sessions: [26, 34], turns: [20, 30], facts: 99 };

const range = (from: number, to: number, memories: number): UserSpec[] =>
  Array.from({ length: to - from + 1 }, (_, index) => ({ name: String(from + index), memories }));

/** Users are numbered from 1 so that `1` is a string prefix of `10`…`19`: the layout that exposes LIKE-prefix leaks. */
export const scales: Record<ScaleName, Scale> = {
  smoke: {
    name: "smoke",
    users: [...range(1, 1, 200), ...range(10, 10, 200)],
    questionsPerUser: 4,
    queryUsersPerBucket: 2,
    conversations: { users: 1, sessions: [4, 5], turns: [10, 12], facts: 6 },
  },
  "10k": {
    name: "10k",
    users: range(1, 10, 1_000),
    questionsPerUser: 10,
    queryUsersPerBucket: 4,
    conversations: CONVERSATIONS,
  },
  "100k": {
    name: "100k",
    users: [...range(1, 9, 10_000), ...range(10, 19, 1_000)],
    questionsPerUser: 10,
    queryUsersPerBucket: 4,
    conversations: CONVERSATIONS,
  },
  "1m": {
    name: "1m",
    users: [...range(1, 90, 10_000), ...range(91, 190, 1_000)],
    questionsPerUser: 10,
    queryUsersPerBucket: 4,
    conversations: CONVERSATIONS,
  },
};

export const totalMemories = (scale: Scale) => scale.users.reduce((sum, user) => sum + user.memories, 0);

/** Users grouped by how many memories each holds, smallest bucket first. */
export function bucketsOf(scale: Scale): Array<{ memoriesPerUser: number; users: UserSpec[] }> {
  const sizes = [...new Set(scale.users.map((user) => user.memories))].sort((a, b) => a - b);
  return sizes.map((size) => ({ memoriesPerUser: size, users: scale.users.filter((user) => user.memories === size) }));
}
