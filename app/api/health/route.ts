import { sql } from "drizzle-orm";
import { NextResponse } from "next/server";
import { configuredEmbeddingModel } from "@/lib/ai/models";
import { errorResponse } from "@/lib/api/errors";
import { config } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { embeddingModelKey } from "@/lib/memory/search";

export const dynamic = "force-dynamic";

/**
 * Liveness and what the instance runs on, for anyone: one trivial statement proves the database answers, and nothing
 * here reads any user's data, so a caller that polls it costs next to nothing. How many memories wait for a vector
 * is each user's own business: the memories console shows it to its owner.
 */
export async function GET() {
  try {
    const database = await getDatabase();
    await database.unbound.rows(sql`select 1`);
    const model = configuredEmbeddingModel();
    return NextResponse.json({
      status: "ok",
      database: database.kind,
      ...(database.kind === "citus" ? { workers: database.workers } : {}),
      vector: database.vector && model !== undefined,
      embedding: model ? embeddingModelKey(model) : null,
      chatModel: config().CHAT_MODEL,
    });
  } catch {
    return errorResponse("unavailable", "The database is not reachable.");
  }
}
