import type { MemoryContext } from "@/lib/memory/core";
import {
  instructionHistory,
  listFeedback,
  serializeFeedback,
  serializeInstructionVersion,
} from "@/lib/memory/procedural";
import { listProposals, serializeProposal } from "@/lib/memory/review";
import {
  listMemories,
  listRules,
  memoryHistories,
  serializeMemory,
  serializeRule,
  serializeVersion,
} from "@/lib/memory/store";
import { EXPORT_FORMAT, EXPORT_VERSION } from "./export-format";

const PAGE = 200;

/**
 * The whole namespace (active, deleted and purged memories, each with its full history, then the user's rules and
 * review proposals, which an import leaves out, then the instructions with every version, which an import brings
 * back, and the feedback on answers, which stays with its chats) as one JSON document,
 * produced page by page so memory use stays flat however many memories there are.
 */
export async function* exportNamespace(ctx: MemoryContext, exportedAt: Date = ctx.clock()): AsyncGenerator<string> {
  yield `{"format":${JSON.stringify(EXPORT_FORMAT)},"version":${EXPORT_VERSION},"exportedAt":${JSON.stringify(exportedAt.toISOString())},"memories":[`;
  let cursor: string | undefined;
  let first = true;
  do {
    const page = await listMemories(ctx, { status: "all", limit: PAGE, cursor });
    const histories = await memoryHistories(
      ctx,
      page.memories.map((memory) => memory.id),
    );
    for (const memory of page.memories) {
      const entry = { ...serializeMemory(memory), history: (histories.get(memory.id) ?? []).map(serializeVersion) };
      yield `${first ? "" : ","}\n${JSON.stringify(entry)}`;
      first = false;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  yield `\n],"rules":${JSON.stringify((await listRules(ctx)).map(serializeRule))},"proposals":[`;
  first = true;
  do {
    const page = await listProposals(ctx, { limit: PAGE, cursor });
    for (const proposal of page.proposals) {
      yield `${first ? "" : ","}\n${JSON.stringify(serializeProposal(proposal))}`;
      first = false;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const versions = (await instructionHistory(ctx)).map(serializeInstructionVersion);
  yield `\n],"instructions":${JSON.stringify({ current: versions[0] ?? null, versions })}`;
  yield `,"feedback":[`;
  first = true;
  do {
    const page = await listFeedback(ctx, { limit: PAGE, cursor });
    for (const feedback of page.feedback) {
      yield `${first ? "" : ","}\n${JSON.stringify(serializeFeedback(feedback))}`;
      first = false;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  yield "\n]}\n";
}
