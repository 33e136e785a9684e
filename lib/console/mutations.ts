import { z } from "zod";
import {
  deleteMemory,
  getMemory,
  MemoryConflictError,
  type MemoryContext,
  type MemoryJson,
  MemoryNotFoundError,
  MemoryValidationError,
  memoryHistory,
  purgeMemory,
  restoreMemory,
  serializeMemory,
  updateMemory,
} from "@/lib/memory";

/** What every console mutation answers; the UI renders each case (conflict shows both versions). */
export type MutationResult =
  | { status: "ok"; memory: MemoryJson }
  | { status: "invalid"; message: string; fieldErrors: Record<string, string> }
  | { status: "conflict"; message: string; theirs: MemoryJson }
  | { status: "not_found" }
  | { status: "error"; message: string };

const id = z.uuid();
const version = z.number().int().positive();

export const editInputSchema = z.strictObject({
  id,
  expectedVersion: version,
  content: z.unknown().refine((value) => value !== undefined, "content is required"),
  reason: z.string().trim().max(2_000).optional(),
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

export const bulkInputSchema = z.strictObject({
  ids: z.array(id).min(1).max(200),
  op: z.enum(["delete", "restore"]),
});
export type BulkInput = z.input<typeof bulkInputSchema>;

function invalidInput(error: z.ZodError): MutationResult {
  return { status: "invalid", message: "The request was not valid.", fieldErrors: fieldErrors(error.issues) };
}

function fieldErrors(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    // Content issues arrive as ["content", field, …]; the form names its inputs by field.
    const inContent = issue.path[0] === "content";
    const path = inContent ? issue.path.slice(1) : issue.path;
    const key = path.map(String).join(".") || (inContent ? "content" : "form");
    errors[key] ??= issue.message;
  }
  return errors;
}

/** Maps the core's typed failures to results; anything else is a bug and propagates. */
async function settle(ctx: MemoryContext, id: string, write: () => Promise<unknown>): Promise<MutationResult> {
  try {
    await write();
    return { status: "ok", memory: serializeMemory(await getMemory(ctx, id)) };
  } catch (error) {
    if (error instanceof MemoryNotFoundError) return { status: "not_found" };
    if (error instanceof MemoryValidationError) {
      return { status: "invalid", message: error.message, fieldErrors: fieldErrors(error.issues) };
    }
    if (error instanceof MemoryConflictError) {
      const theirs = await getMemory(ctx, id).catch(() => null);
      return theirs
        ? { status: "conflict", message: error.message, theirs: serializeMemory(theirs) }
        : { status: "not_found" };
    }
    throw error;
  }
}

/** Saves new content for the memory's current kind, only if nobody changed it since `expectedVersion`. */
export async function editMemory(ctx: MemoryContext, raw: unknown): Promise<MutationResult> {
  const parsed = editInputSchema.safeParse(raw);
  if (!parsed.success) return invalidInput(parsed.error);
  const { id, expectedVersion, content, reason } = parsed.data;
  return settle(ctx, id, () => updateMemory(ctx, id, { content, expectedVersion, reason: reason || undefined }));
}

export async function changeMemoryStatus(ctx: MemoryContext, raw: unknown): Promise<MutationResult> {
  const parsed = statusInputSchema.safeParse(raw);
  if (!parsed.success) return invalidInput(parsed.error);
  const { id, op, confirm } = parsed.data;
  if (confirm.trim().toLowerCase() !== CONFIRM_WORDS[op]) {
    return { status: "invalid", message: `Type "${CONFIRM_WORDS[op]}" to confirm.`, fieldErrors: {} };
  }
  const write = { delete: deleteMemory, restore: restoreMemory, purge: purgeMemory }[op];
  return settle(ctx, id, () => write(ctx, id));
}

/** Writes the content of an earlier version as a new version (history is never rewritten). */
export async function revertMemory(ctx: MemoryContext, raw: unknown): Promise<MutationResult> {
  const parsed = revertInputSchema.safeParse(raw);
  if (!parsed.success) return invalidInput(parsed.error);
  const { id, version, expectedVersion } = parsed.data;
  return settle(ctx, id, async () => {
    const target = (await memoryHistory(ctx, id)).find((entry) => entry.version === version);
    if (!target || target.content === null) {
      throw new MemoryValidationError(`Version ${version} has no content to revert to.`);
    }
    await updateMemory(ctx, id, {
      content: target.content,
      kind: target.kind,
      expectedVersion,
      reason: `Reverted to version ${version}`,
    });
  });
}

export type BulkResult =
  | { status: "ok"; changed: number; skipped: number }
  | { status: "invalid"; message: string; fieldErrors: Record<string, string> };

/** Deletes or restores each selected memory; ids that are not the caller's (or are purged) are skipped. */
export async function bulkChangeStatus(ctx: MemoryContext, raw: unknown): Promise<BulkResult> {
  const parsed = bulkInputSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      status: "invalid",
      message: "Select between 1 and 200 memories.",
      fieldErrors: fieldErrors(parsed.error.issues),
    };
  }
  const { ids, op } = parsed.data;
  const write = op === "delete" ? deleteMemory : restoreMemory;
  let changed = 0;
  for (const memoryId of new Set(ids)) {
    try {
      await write(ctx, memoryId);
      changed++;
    } catch (error) {
      if (!(error instanceof MemoryNotFoundError || error instanceof MemoryConflictError)) throw error;
    }
  }
  return { status: "ok", changed, skipped: new Set(ids).size - changed };
}
