import { z } from "zod";
import { parseInput, ValidationError } from "@/lib/errors";
import {
  type CreateMemoryInput,
  expectedVersionInput,
  instantValue,
  provenanceInput,
  reasonInput,
} from "@/lib/memory/contract";
import { defaultKinds, MemoryConflictError, type MemoryContext, withUnit } from "@/lib/memory/core";
import { updateMemory } from "./change";
import { createMemory } from "./create";
import { getMemory } from "./read";
import type { Memory } from "./types";

export const supersedeMemoryInputSchema = z.strictObject({
  content: z.unknown().refine((value) => value !== undefined, "content is required"),
  /** When the new value started to hold; the old memory's validTo. */
  validFrom: instantValue,
  expectedVersion: expectedVersionInput.optional(),
  reason: reasonInput.optional(),
  provenance: provenanceInput.optional(),
  within: z.array(z.string()).optional(),
});
export type SupersedeMemoryInput = z.input<typeof supersedeMemoryInputSchema>;
type SupersedeMetadata = CreateMemoryInput["metadata"];

/**
 * A fact that changed in the world ("I moved to Vancouver last month") is not rewritten: the old memory keeps its text
 * and is closed (validTo = the new value's validFrom), and a new memory of the same kind, namespace, metadata and pin
 * holds the new value from then. Both in one unit of work; each version's reason names the other memory. A fixed-key
 * kind (the profile) has one document per namespace and cannot be split, so it is refused.
 */
export async function supersedeMemory(
  ctx: MemoryContext,
  id: string,
  raw: SupersedeMemoryInput,
): Promise<{ closed: Memory; created: Memory }> {
  const input = parseInput(supersedeMemoryInputSchema, raw);
  return withUnit(ctx, async (tx) => {
    // Units have no savepoints: everything that could refuse the close is checked, under the user's writer lock,
    // before the new memory is written, so a refusal never leaves the new memory behind in the caller's unit.
    await tx.unit!.serializeUserWrites();
    const old = await getMemory(tx, id, { within: input.within });
    if (old.status !== "active") throw new MemoryConflictError("Only an active memory can be superseded.", old.version);
    if (input.expectedVersion !== undefined && input.expectedVersion !== old.version) {
      throw new MemoryConflictError(
        `Expected version ${input.expectedVersion}, but the memory is at version ${old.version}.`,
        old.version,
      );
    }
    if ((ctx.kinds ?? defaultKinds).get(old.kind).singletonKey) {
      throw new ValidationError(`A ${old.kind} is updated in place; it cannot be superseded.`);
    }
    if (old.validFrom && input.validFrom.getTime() < old.validFrom.getTime()) {
      throw new ValidationError("Invalid input: validFrom: is before the superseded memory's validFrom.", [
        { path: ["validFrom"], message: "is before the superseded memory's validFrom" },
      ]);
    }
    const why = input.reason ? `: ${input.reason}` : "";
    const created = await createMemory(tx, {
      kind: old.kind,
      namespace: old.namespace,
      content: input.content,
      metadata: old.metadata as SupersedeMetadata,
      pinned: old.pinned,
      validFrom: input.validFrom,
      reason: `supersedes memory ${old.id}${why}`,
      provenance: input.provenance,
    });
    const closed = await updateMemory(tx, id, {
      validTo: input.validFrom,
      expectedVersion: input.expectedVersion,
      reason: `superseded by memory ${created.id}${why}`,
      provenance: input.provenance,
    });
    return { closed, created };
  });
}
