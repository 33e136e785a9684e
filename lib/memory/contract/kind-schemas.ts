import { z } from "zod";
import { LIMITS } from "./limits";

/** Built-in content schemas, one per kind. Strict so a typo'd field is an error rather than silently kept. */
const line = (max = 8_000) => z.string().trim().min(1).max(max);

export const memoryContent = z.strictObject({ content: line(LIMITS.memoryTextChars) });

export const preferenceContent = z.strictObject({
  subject: line(500).optional(),
  preference: line(),
  context: line().optional(),
});

export const episodeContent = z.strictObject({
  observation: line(),
  thoughts: line(),
  action: line(),
  result: line(),
});

export const procedureContent = z.strictObject({ rule: line(), when: line().optional() });

export const tripleContent = z.strictObject({
  subject: line(500),
  predicate: line(500),
  object: line(),
  context: line().optional(),
});

/** One free-form document per namespace: field name → JSON value. */
export const profileContent = z.record(z.string().min(1).max(200), z.json());

export type MemoryContent = z.infer<typeof memoryContent>;
export type PreferenceContent = z.infer<typeof preferenceContent>;
export type EpisodeContent = z.infer<typeof episodeContent>;
export type ProcedureContent = z.infer<typeof procedureContent>;
export type TripleContent = z.infer<typeof tripleContent>;
export type ProfileContent = z.infer<typeof profileContent>;
