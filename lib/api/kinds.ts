import { z } from "zod";
import { createKindRegistry, defineKind, renderFields } from "@/lib/memory";

/**
 * Values written through the LangGraph Store API are arbitrary JSON objects. Unless a value is exactly
 * `{ content: string }` (an ordinary `memory`), it is kept verbatim as a `document`, searchable by its field text.
 */
export const documentKind = defineKind({
  name: "document",
  schema: z.record(z.string().min(1).max(200), z.json()),
  render: renderFields,
});

/** The kinds every HTTP surface (REST, LangGraph, MCP) reads and writes. */
export const apiKinds = createKindRegistry([documentKind]);
