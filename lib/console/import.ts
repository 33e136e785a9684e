import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { asUser } from "@/lib/db/principal";
import { memories } from "@/lib/db/schema";
import {
  createMemories,
  defaultKinds,
  deleteMemory,
  type MemoryContext,
  MemoryError,
  validateNamespace,
} from "@/lib/memory";
import { prepareContent } from "@/lib/memory/kinds";
import { type ExportedMemory, exportFileSchema } from "./export-format";

export type ImportAction = "create" | "unchanged" | "conflict" | "purged" | "invalid";

export interface PlannedItem {
  index: number;
  action: ImportAction;
  kind: string;
  key: string;
  namespace: string[];
  text: string;
  status: "active" | "deleted";
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
}

export type ImportResult =
  | { status: "planned"; summary: ImportSummary }
  | { status: "applied"; summary: ImportSummary; created: number }
  | { status: "rejected"; message: string; issues: string[] };

const SAMPLE = 50;
const WRITE_BATCH = 100;
const LOOKUP_BATCH = 1_000;

const importInputSchema = z.strictObject({
  file: z
    .string()
    .min(1, "Choose an export file.")
    .max(10 * 1024 * 1024, "The file is larger than 10 MB."),
  apply: z.boolean(),
});

/**
 * Reads a console export and plans what importing it into the caller's namespace would do; with `apply`, does it.
 * Each memory is validated against its kind. A memory whose namespace and key already exist is left alone
 * (`unchanged` when the content is the same, `conflict` otherwise), so importing the same file twice writes nothing
 * the second time. Purged memories have no content and are skipped. History is not replayed: imported memories
 * start a new history whose first version records the import.
 */
export async function importNamespace(ctx: MemoryContext, raw: unknown): Promise<ImportResult> {
  const input = importInputSchema.safeParse(raw);
  if (!input.success) return rejected(input.error.issues.map((issue) => issue.message));
  let json: unknown;
  try {
    json = JSON.parse(input.data.file);
  } catch {
    return rejected(["The file is not JSON."]);
  }
  const file = exportFileSchema.safeParse(json);
  if (!file.success) {
    return rejected(
      file.error.issues.slice(0, 10).map((issue) => `${issue.path.join(".") || "file"}: ${issue.message}`),
    );
  }
  const plan = await planImport(ctx, file.data.memories);
  const summary = summarize(plan.map((entry) => entry.item));
  if (!input.data.apply) return { status: "planned", summary };
  const created = await applyPlan(ctx, plan);
  return { status: "applied", summary, created };
}

function rejected(issues: string[]): ImportResult {
  return { status: "rejected", message: "This is not a Memory Ledger export file.", issues };
}

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
    let prepared: ReturnType<typeof prepareContent>;
    let namespace: string[];
    try {
      namespace = validateNamespace(memory.namespace);
      const singletonKey = kinds.get(memory.kind).singletonKey;
      if (singletonKey && memory.key !== singletonKey)
        throw new Error(`A ${memory.kind} must use key "${singletonKey}".`);
      prepared = prepareContent(kinds, memory.kind, memory.content);
    } catch (error) {
      return skip("invalid", error instanceof MemoryError || error instanceof Error ? error.message : "Invalid.");
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
    const rows = await asUser(ctx.database.db, ctx.principal.userId, (tx) =>
      tx
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
