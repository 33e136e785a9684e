import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { memories } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import { type ActionResult, AppError, type ErrorDetail, parseInput, settleAction, ValidationError } from "@/lib/errors";
import { LIMITS, validateNamespace } from "@/lib/memory/contract";
import { defaultKinds, type MemoryContext, prepareContent } from "@/lib/memory/core";
import { changeInstructions, currentInstructions } from "@/lib/memory/procedural";
import { createMemories, deleteMemory } from "@/lib/memory/store";
import { type ExportedMemory, exportFileSchema, MAX_IMPORT_BYTES, MAX_IMPORT_MEMORIES } from "./export-format";

export type ImportAction = "create" | "unchanged" | "conflict" | "purged" | "invalid";

export interface PlannedItem {
  index: number;
  action: ImportAction;
  kind: string;
  key: string;
  namespace: string[];
  text: string;
  status: "active" | "deleted" | "merged";
  /** Why an item is skipped (conflict, invalid). */
  message?: string;
}

export interface ImportSummary {
  total: number;
  counts: Record<ImportAction, number>;
  /** Items that are not created, with the reason, so the person can decide before applying. */
  skipped: PlannedItem[];
  /** A sample of what will be created. */
  creating: PlannedItem[];
  /** The file's instructions: `replace` makes them a new version of the caller's; absent when the file has none. */
  instructions?: "replace" | "unchanged";
}

/** A dry run's plan or an applied import; a file that is not an export is a failure with its problems as details. */
export type ImportResult = ActionResult<
  { outcome: "planned"; summary: ImportSummary } | { outcome: "applied"; summary: ImportSummary; created: number }
>;

const SAMPLE = 50;
const WRITE_BATCH = LIMITS.batchItems;
const LOOKUP_BATCH = 1_000;

const importInputSchema = z.strictObject({
  file: z
    .string()
    .min(1, "Choose an export file.")
    .max(MAX_IMPORT_BYTES, `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB, the most one import takes`),
  apply: z.boolean(),
});

/**
 * Reads a console export and plans what importing it into the caller's namespace would do; with `apply`, does it.
 * Each memory is validated against its kind. A memory whose namespace and key already exist is left alone
 * (`unchanged` when the content is the same, `conflict` otherwise), so importing the same file twice writes nothing
 * the second time. Purged memories have no content and are skipped. History is not replayed: imported memories
 * start a new history whose first version records the import.
 */
export function importNamespace(ctx: MemoryContext, raw: unknown): Promise<ImportResult> {
  return settleAction(async () => {
    const input = parseInput(importInputSchema, raw);
    const json = parseJson(input.file);
    const carried = (json as { memories?: unknown } | null)?.memories;
    if (Array.isArray(carried) && carried.length > MAX_IMPORT_MEMORIES) throw tooManyMemories(carried.length);
    const file = exportFileSchema.safeParse(json);
    if (!file.success) {
      throw notAnExport(
        file.error.issues
          .slice(0, 10)
          .map((issue) => ({ path: ["file", ...issue.path.map(String)], message: issue.message })),
      );
    }
    const plan = await planImport(ctx, file.data.memories);
    const imported = file.data.instructions?.current ?? null;
    const standing = imported ? await currentInstructions(ctx) : null;
    const instructions: ImportSummary["instructions"] = imported
      ? standing?.text === imported.text
        ? "unchanged"
        : "replace"
      : undefined;
    const summary = { ...summarize(plan.map((entry) => entry.item)), ...(instructions ? { instructions } : {}) };
    if (!input.apply) return { outcome: "planned" as const, summary };
    const created = await applyPlan(ctx, plan);
    if (imported && instructions === "replace") {
      await changeInstructions(ctx, {
        text: imported.text,
        changedBy: { type: "user", id: ctx.principal.userId },
        reason: `imported from an export (was version ${imported.version})`,
      });
    }
    return { outcome: "applied" as const, summary, created };
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw notAnExport([{ path: ["file"], message: "The file is not JSON." }]);
  }
}

const tooManyMemories = (count: number) =>
  new AppError(
    "payload_too_large",
    `This file holds ${count.toLocaleString("en")} memories; one import takes at most ` +
      `${MAX_IMPORT_MEMORIES.toLocaleString("en")}. Split its "memories" list into files of at most that many and import each.`,
    [{ path: ["file", "memories"], message: `at most ${MAX_IMPORT_MEMORIES} items` }],
  );

const notAnExport = (details: ErrorDetail[]) =>
  new ValidationError("This is not a Memory Ledger export file.", details);

interface PlanEntry {
  item: PlannedItem;
  memory: ExportedMemory;
  content: unknown;
}

async function planImport(ctx: MemoryContext, exported: ExportedMemory[]): Promise<PlanEntry[]> {
  const kinds = ctx.kinds ?? defaultKinds;
  const existing = await existingHashes(ctx, exported);
  const seen = new Set<string>();
  return exported.map((memory, index) => {
    const item: PlannedItem = {
      index,
      action: "create",
      kind: memory.kind,
      key: memory.key,
      namespace: memory.namespace,
      text: memory.text,
      status: memory.status,
    };
    const skip = (action: ImportAction, message?: string): PlanEntry => ({
      item: { ...item, action, ...(message ? { message } : {}) },
      memory,
      content: null,
    });
    if (memory.content === null || memory.content === undefined) return skip("purged", "Purged: no content to import.");
    // Its fact came with the memory it was merged into (docs/memory-model.md, "Consolidation").
    if (memory.status === "merged") return skip("unchanged", "Merged into another memory of the file.");
    let prepared: ReturnType<typeof prepareContent>;
    let namespace: string[];
    try {
      namespace = validateNamespace(memory.namespace);
      const singletonKey = kinds.get(memory.kind).singletonKey;
      if (singletonKey && memory.key !== singletonKey)
        throw new Error(`A ${memory.kind} must use key "${singletonKey}".`);
      prepared = prepareContent(kinds, memory.kind, memory.content);
    } catch (error) {
      return skip("invalid", error instanceof Error ? error.message : "Invalid.");
    }
    const slot = slotKey(namespace, memory.key);
    if (seen.has(slot)) return skip("invalid", "The file has this namespace and key twice.");
    seen.add(slot);
    const hash = existing.get(slot);
    if (hash === prepared.contentHash) return skip("unchanged", "Already here with the same content.");
    if (hash !== undefined) return skip("conflict", "A different memory already uses this key; it is kept.");
    return { item: { ...item, text: prepared.text }, memory, content: prepared.content };
  });
}

const slotKey = (namespace: readonly string[], key: string) => JSON.stringify([namespace, key]);

/** Content hashes of the caller's memories that share a key with the file, by relative (namespace, key). */
async function existingHashes(ctx: MemoryContext, exported: ExportedMemory[]): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  const keys = [...new Set(exported.map((memory) => memory.key))];
  const rootLength = ctx.principal.root.length;
  for (let offset = 0; offset < keys.length; offset += LOOKUP_BATCH) {
    const rows = await asUser(ctx, ({ db }) =>
      db
        .select({ namespace: memories.namespace, key: memories.key, contentHash: memories.contentHash })
        .from(memories)
        .where(
          and(
            eq(memories.userId, ctx.principal.userId),
            inArray(memories.key, keys.slice(offset, offset + LOOKUP_BATCH)),
          ),
        ),
    );
    for (const row of rows) {
      const under = ctx.principal.root.every((segment, i) => row.namespace[i] === segment);
      if (under) hashes.set(slotKey(row.namespace.slice(rootLength), row.key), row.contentHash);
    }
  }
  return hashes;
}

function summarize(items: PlannedItem[]): ImportSummary {
  const counts: Record<ImportAction, number> = { create: 0, unchanged: 0, conflict: 0, purged: 0, invalid: 0 };
  for (const item of items) counts[item.action]++;
  return {
    total: items.length,
    counts,
    skipped: items.filter((item) => item.action !== "create").slice(0, SAMPLE),
    creating: items.filter((item) => item.action === "create").slice(0, SAMPLE),
  };
}

async function applyPlan(ctx: MemoryContext, plan: PlanEntry[]): Promise<number> {
  const toCreate = plan.filter((entry) => entry.item.action === "create");
  let created = 0;
  for (let offset = 0; offset < toCreate.length; offset += WRITE_BATCH) {
    const batch = toCreate.slice(offset, offset + WRITE_BATCH);
    const written = await createMemories(
      ctx,
      batch.map(({ memory, content }) => ({
        content,
        kind: memory.kind,
        namespace: memory.namespace,
        key: memory.key,
        metadata: memory.metadata,
        pinned: memory.pinned,
        validFrom: memory.validFrom,
        validTo: memory.validTo,
        reason: `Imported (was version ${memory.version}, last changed ${memory.updatedAt})`,
      })),
    );
    // Tombstones are imported as tombstones, so facts the person deleted stay suppressed.
    for (const [i, memory] of written.entries()) {
      if (batch[i]?.memory.status === "deleted") await deleteMemory(ctx, memory.id, { reason: "Imported as deleted" });
    }
    created += written.length;
  }
  return created;
}
