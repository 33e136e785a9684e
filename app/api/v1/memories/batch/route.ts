import { NextResponse } from "next/server";
import { readJsonBody } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { batchBody, createMemoryBody, MAX_BATCH_BODY_BYTES } from "@/lib/api/memory-requests";
import { AppError, failureOf, parseInput } from "@/lib/errors";
import type { CreateMemoryInput } from "@/lib/memory/contract";
import { createMemoryBatch, serializeMemory } from "@/lib/memory/store";

export const dynamic = "force-dynamic";

/**
 * Up to LIMITS.batchItems memories in one transaction: each item is checked as `POST /api/v1/memories` checks it,
 * the valid ones are written together, and every invalid one is reported by its index with the error a single
 * create would have given, writing nothing.
 */
export const POST = memoryRoute(async ({ request, memory }) => {
  const { memories: items } = parseInput(batchBody, await readJsonBody(request, MAX_BATCH_BODY_BYTES));
  const rejected: Array<{ index: number; error: unknown }> = [];
  const valid: Array<{ index: number; input: CreateMemoryInput }> = [];
  for (const [index, item] of items.entries()) {
    try {
      valid.push({ index, input: parseInput(createMemoryBody, item) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      rejected.push({ index, error });
    }
  }
  const outcome = await createMemoryBatch(
    memory,
    valid.map((entry) => entry.input),
  );
  for (const { index, error } of outcome.rejected) rejected.push({ index: valid[index]!.index, error });
  return NextResponse.json(
    {
      created: outcome.created.map((entry) => serializeMemory(entry.memory)),
      rejected: rejected
        .sort((a, b) => a.index - b.index)
        .map(({ index, error }) => {
          const { code, message } = failureOf(error);
          return { index, error: { code, message } };
        }),
    },
    { status: 201 },
  );
});
