"use server";

import { revalidatePath } from "next/cache";
import { type ImportResult, importNamespace } from "@/lib/console/import";
import {
  type BulkResult,
  bulkChangeStatus,
  changeMemoryStatus,
  editMemory,
  type MutationResult,
  pinMemory,
  revertMemory,
} from "@/lib/console/mutations";
import { actionFailure, type Failure } from "@/lib/errors";
import type { MemoryContext } from "@/lib/memory/core";
import { ownScope } from "./scope";

type Refused = { ok: false; error: Failure };

/** Runs a mutation in the caller's own namespace, then refreshes the pages that show it. */
async function inOwnNamespace<R extends { ok: boolean }>(
  mutate: (ctx: MemoryContext) => Promise<R>,
): Promise<R | Refused> {
  let ctx: MemoryContext;
  try {
    ctx = (await ownScope()).ctx;
  } catch (error) {
    return actionFailure(error);
  }
  const result = await mutate(ctx);
  // Only after a write: revalidating re-renders the caller's page in the same round trip, which would replace a
  // conflict view with the newer version before the person has chosen.
  if (wrote(result)) revalidatePath("/memories", "layout");
  return result;
}

function wrote(result: { ok: boolean }): boolean {
  const outcome = result as { ok: boolean; changed?: number; outcome?: string };
  return outcome.ok && outcome.changed !== 0 && outcome.outcome !== "planned";
}

export async function editMemoryAction(input: unknown): Promise<MutationResult> {
  return inOwnNamespace((ctx) => editMemory(ctx, input));
}

export async function changeStatusAction(input: unknown): Promise<MutationResult> {
  return inOwnNamespace((ctx) => changeMemoryStatus(ctx, input));
}

export async function revertMemoryAction(input: unknown): Promise<MutationResult> {
  return inOwnNamespace((ctx) => revertMemory(ctx, input));
}

export async function pinMemoryAction(input: unknown): Promise<MutationResult> {
  return inOwnNamespace((ctx) => pinMemory(ctx, input));
}

export async function bulkStatusAction(input: unknown): Promise<BulkResult | Refused> {
  return inOwnNamespace((ctx) => bulkChangeStatus(ctx, input));
}

export async function importAction(input: unknown): Promise<ImportResult | Refused> {
  return inOwnNamespace((ctx) => importNamespace(ctx, input));
}
