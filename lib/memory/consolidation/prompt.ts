import { z } from "zod";
import type { CandidateGroup } from "./candidates";

/** The consolidation model's instructions, in our own words. */
export const CONSOLIDATION_INSTRUCTIONS = `You tidy a long-term memory about one user, one group of related memories
at a time, like a person tidying their notes: nothing you do erases anything, and the user can undo it. You are shown
the group's memories (ids, versions, kind, text, when each was written, when it held in the world, the user's words it
came from, and who last changed it), which pairs look alike ("duplicate"), fill the same subject with different
values ("slot") or are only close in meaning ("close": judge them yourself), and today's date. Answer with operations (fields that do not apply are null), each citing the ids it
rests on, all of them from this group:
- merge: memories that say the same thing. "ids": all of them; "into": the one that stands (the others are folded
  into it and keep their history). "text": null keeps the text of "into"; where the others add details it lacks
  (when, with whom, why), the wording "into" takes instead, holding every detail of each and adding none.
- supersede: memories holding an old value of a fact a newer memory in the group replaces. "ids": the old ones;
  "into": the newer one that stands. The old ones stay readable as history.
- expire: a plan, trip or appointment whose date has passed. "ids": those memories; "validTo": the day after the date
  (YYYY-MM-DD).
Only memories of the same kind and namespace can be merged or superseded. Leave alone what is not clearly the same
fact or clearly outdated, and memories a person changed last unless it is plain. Answer with an empty list when
nothing should change.`;

export const consolidationWireOpSchema = z.strictObject({
  op: z.enum(["merge", "supersede", "expire"]),
  ids: z.array(z.string()).describe("The memories the op changes, by id, all from the group shown."),
  into: z
    .string()
    .nullable()
    .describe("merge: the memory the others are folded into. supersede: the newer one that stands. expire: null."),
  validTo: z.string().nullable().describe("expire: the day the fact stopped holding (YYYY-MM-DD). Otherwise null."),
  text: z
    .string()
    .nullable()
    .describe('merge: the wording "into" takes, holding every detail of the memories merged; null keeps its own.'),
  reason: z.string().nullable().describe("Why, in a few words."),
});
export type ConsolidationWireOp = z.infer<typeof consolidationWireOpSchema>;

export const consolidationAnswerSchema = z.strictObject({ ops: z.array(consolidationWireOpSchema) });

export interface ConsolidationInput {
  today: string;
  memories: Array<{
    id: string;
    version: number;
    namespace: string[];
    kind: string;
    text: string;
    createdAt: string;
    validFrom: string | null;
    validTo: string | null;
    quote: string | null;
    lastChangedBy: string;
  }>;
  related: Array<{ a: string; b: string; relation: string }>;
  dated: Array<{ id: string; date: string }>;
}

/** One group as a JSON document, so memory text can never pass for instructions and the model sees which ids exist. */
export function buildConsolidationPrompt(group: CandidateGroup, now: Date, root: readonly string[]): string {
  const input: ConsolidationInput = {
    today: now.toISOString().slice(0, 10),
    memories: group.memories.map((memory) => ({
      id: memory.id,
      version: memory.version,
      namespace: memory.namespace.slice(root.length),
      kind: memory.kind,
      text: memory.text,
      createdAt: memory.createdAt.toISOString(),
      validFrom: memory.validFrom?.toISOString() ?? null,
      validTo: memory.validTo?.toISOString() ?? null,
      quote: memory.quote,
      lastChangedBy: memory.lastChangedBy,
    })),
    related: group.pairs,
    dated: group.dated,
  };
  return `Consolidation group (JSON):\n${JSON.stringify(input, null, 1)}`;
}

/** The group a consolidation prompt carries, or null when the prompt is not one (the offline model reads it). */
export function parseConsolidationPrompt(prompt: string): ConsolidationInput | null {
  const start = prompt.indexOf("{");
  if (!prompt.startsWith("Consolidation group (JSON):") || start < 0) return null;
  try {
    return JSON.parse(prompt.slice(start)) as ConsolidationInput;
  } catch {
    return null;
  }
}
