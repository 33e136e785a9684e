import { NextResponse } from "next/server";
import { openApiDocument } from "@/lib/api/openapi";

/** Public: the document describes the API, it grants nothing. */
export function GET(request: Request) {
  return NextResponse.json(openApiDocument(new URL(request.url).origin));
}
