import { z } from "zod";
import {
  type ActionResult,
  AppError,
  actionFailure,
  type Failure,
  parseInput,
  settleAction,
  ValidationError,
} from "@/lib/errors";
import { LIMITS, type MemoryJson } from "@/lib/memory/contract";
import { type MemoryContext, MemoryNotFoundError } from "@/lib/memory/core";
import {
  deleteMemory,
  getMemory,
  memoryHistory,
  purgeMemory,
  restoreMemory,
  serializeMemory,
  updateMemory,
} from "@/lib/memory/store";

/**
 * What every console mutation answers: the memory as it now is, or the failure (lib/errors.ts) — for a conflict
 * with the version someone else saved, so the page can show both.
 */
export type MutationResult = { ok: true; memory: MemoryJson } | { ok: false; error: Failure; theirs?: MemoryJson };

const id = z.uuid();
const version = z.number().int().positive();

export const editInputSchema = z.strictObject({
  id,
  expectedVersion: version,
  content: z.unknown().refine((value) => value !== undefined, "content is required"),
  reason: z.string().trim().max(LIMITS.reasonChars).optional(),
});
export type EditInput = z.input<typeof editInputSchema>;

/** The word a person types to confirm each destructive operation; the server checks it too. */
export const CONFIRM_WORDS = { delete: "delete", restore: "restore", purge: "purge" } as const;
export type StatusOp = keyof typeof CONFIRM_WORDS;

export const statusInputSchema = z.strictObject({
  id,
  op: z.enum(["delete", "restore", "purge"]),
  confirm: z.string(),
});
export type StatusInput = z.input<typeof statusInputSchema>;

export const revertInputSchema = z.strictObject({ id, version, expectedVersion: version });
export type RevertInput = z.input<typeof revertInputSchema>;

export const pinInputSchema = z.strictObject({ id, pinned: z.boolean() });
export type PinInput = z.input<typeof pinInputSchema>;

const SELECT_BETWEEN = `Select between 1 and ${LIMITS.bulkIds} memories.`;

export const bulkInputSchema = z.strictObject({
  ids: z.array(id).min(1, SELECT_BETWEEN).max(LIMITS.bulkIds, SELECT_BETWEEN),
  op: z.enum(["delete", "restore"]),
});
export type BulkInput = z.input<typeof bulkInputSchema>;

/** Runs `write`, answering the memory as it then is; expected failures become results, faults propagate. */
async function settle(ctx: MemoryContext, id: string, write: () => Promise<unknown>): Promise<MutationResult> {
  try {
    await write();
    return { ok: true, memory: serializeMemory(await getMemory(ctx, id)) };
  } catch (error) {
    const failed = actionFailure(error);
    if (failed.error.code !== "conflict") return failed;
    const theirs = await getMemory(ctx, id).catch(() => null);
    return theirs ? { ...failed, theirs: serializeMemory(theirs) } : actionFailure(new MemoryNotFoundError(id));
  }
}

/** Saves new content for the memory's current kind, only if nobody changed it since `expectedVersion`. */
export async function editMemory(ctx: MemoryContext, raw: unknown): Promise<MutationResult> {
  return settleInput(editInputSchema, raw, ({ id, expectedVersion, content, reason }) =>
    settle(ctx, id, () => updateMemory(ctx, id, { content, expectedVersion, reason: reason || undefined })),
  );
}

export async function changeMemoryStatus(ctx: MemoryContext, raw: unknown): Promise<MutationResult> {
  return settleInput(statusInputSchema, raw, ({ id, op, confirm }) => {
    if (confirm.trim().toLowerCase() !== CONFIRM_WORDS[op]) {
      throw new ValidationError(`Type "${CONFIRM_WORDS[op]}" to confirm.`, [
        { path: ["confirm"], message: "mismatch" },
      ]);
    }
    const write = { delete: deleteMemory, restore: restoreMemory, purge: purgeMemory }[op];
    return settle(ctx, id, () => write(ctx, id));
  });
}

/** Writes the content of an earlier version as a new version (history is never rewritten). */
export async function revertMemory(ctx: MemoryContext, raw: unknown): Promise<MutationResult> {
  return settleInput(revertInputSchema, raw, ({ id, version, expectedVersion }) =>
    settle(ctx, id, async () => {
      const target = (await memoryHistory(ctx, id)).find((entry) => entry.version === version);
      if (!target || target.content === null) {
        throw new ValidationError(`Version ${version} has no content to revert to.`);
      }
      await updateMemory(ctx, id, {
        content: target.content,
        kind: target.kind,
        expectedVersion,
        reason: `Reverted to version ${version}`,
      });
    }),
  );
}

/** Pins (recalled into every chat turn) or unpins; a version with the reason records who did it and when. */
export async function pinMemory(ctx: MemoryContext, raw: unknown): Promise<MutationResult> {
  return settleInput(pinInputSchema, raw, ({ id, pinned }) => settle(ctx, id, () => updateMemory(ctx, id, { pinned })));
}

export type BulkResult = ActionResult<{ changed: number; skipped: number }>;

/** Deletes or restores each selected memory; ids that are not the caller's (or are purged) are skipped. */
export async function bulkChangeStatus(ctx: MemoryContext, raw: unknown): Promise<BulkResult> {
  return settleAction(async () => {
    const { ids, op } = parseInput(bulkInputSchema, raw);
    const write = op === "delete" ? deleteMemory : restoreMemory;
    let changed = 0;
    for (const memoryId of new Set(ids)) {
      try {
        await write(ctx, memoryId);
        changed++;
      } catch (error) {
        if (!(error instanceof AppError && (error.code === "not_found" || error.code === "conflict"))) throw error;
      }
    }
    return { changed, skipped: new Set(ids).size - changed };
  });
}

/** Parses the input first: an invalid one is answered like any other expected failure. */
async function settleInput<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  work: (input: z.output<S>) => Promise<MutationResult>,
): Promise<MutationResult> {
  try {
    return await work(parseInput(schema, raw));
  } catch (error) {
    return actionFailure(error);
  }
}
