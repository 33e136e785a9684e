import { NextResponse } from "next/server";
import { readJsonBody } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { parseInput } from "@/lib/errors";
import { listNamespacesBody } from "@/lib/langgraph/requests";
import { listItemNamespaces } from "@/lib/langgraph/store";

export const dynamic = "force-dynamic";

export const POST = memoryRoute(
  async ({ request, memory }) => {
    const body = parseInput(listNamespacesBody, await readJsonBody(request));
    return NextResponse.json({ namespaces: await listItemNamespaces(memory, body) });
  },
  { keyHeader: "x-api-key", scope: "read" },
);
