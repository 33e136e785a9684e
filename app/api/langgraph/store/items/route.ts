import { NextResponse } from "next/server";
import { queryParams, readJsonBody } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { parseInput } from "@/lib/errors";
import { deleteItemBody, getItemQuery, putItemBody } from "@/lib/langgraph/requests";
import { deleteItem, getItem, putItem } from "@/lib/langgraph/store";

export const dynamic = "force-dynamic";

const langgraph = { keyHeader: "x-api-key" } as const;

export const PUT = memoryRoute(async ({ request, memory }) => {
  await putItem(memory, parseInput(putItemBody, await readJsonBody(request)));
  return new Response(null, { status: 204 });
}, langgraph);

/** `namespace` is dot-joined (`a.b`), as the SDK sends it; an empty label, including an absent namespace, is a 422. */
export const GET = memoryRoute(async ({ request, memory }) => {
  const query = parseInput(getItemQuery, queryParams(request));
  return NextResponse.json(await getItem(memory, query.namespace.split("."), query.key));
}, langgraph);

export const DELETE = memoryRoute(async ({ request, memory }) => {
  const body = parseInput(deleteItemBody, await readJsonBody(request));
  await deleteItem(memory, body.namespace, body.key);
  return new Response(null, { status: 204 });
}, langgraph);
