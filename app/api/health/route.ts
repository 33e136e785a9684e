import { NextResponse } from "next/server";
import { chatModelId } from "@/lib/ai/config";
import { configuredEmbeddingModel } from "@/lib/ai/models";
import { errorResponse } from "@/lib/api/errors";
import { getDatabase } from "@/lib/db";
import { embeddingBacklogAcrossUsers, embeddingModelKey } from "@/lib/memory";

export const dynamic = "force-dynamic";

/** Memories still waiting for a vector are counted up to this many: the answer stays cheap on a large database. */
const BACKLOG_CAP = 10_000;

export async function GET() {
  try {
    const database = await getDatabase();
    const model = configuredEmbeddingModel();
    const vector = database.vector && model !== undefined;
    const backlog = vector ? (await embeddingBacklogAcrossUsers(database, model, BACKLOG_CAP)).pending : 0;
    return NextResponse.json({
      status: "ok",
      database: database.kind,
      ...(database.kind === "citus" ? { workers: database.workers } : {}),
      vector,
      embedding: model ? embeddingModelKey(model) : null,
      backlog,
      chatModel: chatModelId(),
    });
  } catch {
    return errorResponse("unavailable", "The database is not reachable.");
  }
}
