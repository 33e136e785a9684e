import { NextResponse } from "next/server";
import { chatModelId } from "@/lib/ai/config";
import { errorResponse } from "@/lib/api/errors";
import { getDatabase } from "@/lib/db";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const database = await getDatabase();
    return NextResponse.json({
      status: "ok",
      database: database.kind,
      vector: database.vector,
      chatModel: chatModelId(),
    });
  } catch {
    return errorResponse("unavailable", "The database is not reachable.");
  }
}
