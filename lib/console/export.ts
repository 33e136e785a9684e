import { and, asc, eq, inArray } from "drizzle-orm";
import { asUser } from "@/lib/db/principal";
import { memoryVersions } from "@/lib/db/schema";
import { listMemories, type MemoryContext, type MemoryVersionJson, serializeMemory } from "@/lib/memory";
import { EXPORT_FORMAT, EXPORT_VERSION } from "./export-format";

const PAGE = 200;

type VersionRow = typeof memoryVersions.$inferSelect;

function versionJson(row: VersionRow): MemoryVersionJson {
  return {
    version: row.version,
    op: row.op,
    kind: row.kind,
    content: row.content ?? null,
    text: row.text ?? "",
    status: row.status,
    metadata: row.metadata,
    actor: { type: row.actorType as MemoryVersionJson["actor"]["type"], id: row.actorId },
    reason: row.reason,
    source: {
      type: row.sourceType as MemoryVersionJson["source"]["type"],
      ...(row.threadId ? { threadId: row.threadId } : {}),
      ...(row.messageId ? { messageId: row.messageId } : {}),
      ...(row.quote ? { quote: row.quote } : {}),
      ...(row.runId ? { runId: row.runId } : {}),
    },
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The whole namespace (active, deleted and purged memories, each with its full history) as one JSON document,
 * produced page by page so memory use stays flat however many memories there are.
 */
export async function* exportNamespace(ctx: MemoryContext, exportedAt: Date = ctx.clock()): AsyncGenerator<string> {
  yield `{"format":${JSON.stringify(EXPORT_FORMAT)},"version":${EXPORT_VERSION},"exportedAt":${JSON.stringify(exportedAt.toISOString())},"memories":[`;
  let cursor: string | undefined;
  let first = true;
  do {
    const page = await listMemories(ctx, { status: "all", limit: PAGE, cursor });
    if (page.memories.length > 0) {
      const rows = await asUser(ctx.database.db, ctx.principal.userId, (tx) =>
        tx
          .select()
          .from(memoryVersions)
          .where(
            and(
              eq(memoryVersions.userId, ctx.principal.userId),
              inArray(
                memoryVersions.memoryId,
                page.memories.map((memory) => memory.id),
              ),
            ),
          )
          .orderBy(asc(memoryVersions.memoryId), asc(memoryVersions.version)),
      );
      const history = new Map<string, VersionRow[]>();
      for (const row of rows) {
        const versions = history.get(row.memoryId);
        if (versions) versions.push(row);
        else history.set(row.memoryId, [row]);
      }
      for (const memory of page.memories) {
        const entry = { ...serializeMemory(memory), history: (history.get(memory.id) ?? []).map(versionJson) };
        yield `${first ? "" : ","}\n${JSON.stringify(entry)}`;
        first = false;
      }
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  yield "\n]}\n";
}
