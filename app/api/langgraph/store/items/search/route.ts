import { NextResponse } from "next/server";
import { readJsonBody } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { parseInput } from "@/lib/errors";
import { searchItemsBody } from "@/lib/langgraph/requests";
import { searchItems } from "@/lib/langgraph/store";

export const dynamic = "force-dynamic";

export const POST = memoryRoute(
  async ({ request, memory }) => {
    const body = parseInput(searchItemsBody, await readJsonBody(request));
    return NextResponse.json({ items: await searchItems(memory, body) });
  },
  { keyHeader: "x-api-key", scope: "read" },
);
