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
import type { Failure } from "@/lib/errors";
import { ownScope } from "./scope";

const SIGNED_OUT: { ok: false; error: Failure } = {
  ok: false,
  error: { code: "unauthorized", message: "Your session has ended; sign in again.", details: [] },
};

/** Runs a mutation in the caller's own namespace, then refreshes the pages that show it. */
async function inOwnNamespace<R extends { ok: boolean }>(
  mutate: (ctx: NonNullable<Awaited<ReturnType<typeof ownScope>>>["ctx"]) => Promise<R>,
): Promise<R | typeof SIGNED_OUT> {
  const scope = await ownScope();
  if (!scope) return SIGNED_OUT;
  const result = await mutate(scope.ctx);
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

export async function bulkStatusAction(input: unknown): Promise<BulkResult | typeof SIGNED_OUT> {
  return inOwnNamespace((ctx) => bulkChangeStatus(ctx, input));
}

export async function importAction(input: unknown): Promise<ImportResult | typeof SIGNED_OUT> {
  return inOwnNamespace((ctx) => importNamespace(ctx, input));
}
