import { z } from "zod";
import { createdKeyResponse, createKeyBody, keyListResponse, revokedKeyResponse } from "./key-requests";
import {
  createMemoryBody,
  deleteMemoryQuery,
  listMemoriesQuery,
  searchMemoriesBody,
  updateMemoryBody,
} from "./memory-requests";
import {
  errorResponseBody,
  extractionQueuedResponse,
  historyResponse,
  memoryListResponse,
  memoryResponse,
  meResponse,
  searchResponse,
  threadExtractionResponse,
} from "./response-schemas";

type JsonSchema = Record<string, unknown>;
type Method = "get" | "post" | "patch" | "delete";
type Security = "bearer" | "cookie";

interface Operation {
  method: Method;
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  success: { status: number; description: string; schema?: z.ZodType };
  errors: number[];
  /** Defaults to both; issuing and revoking keys needs the session cookie. */
  security?: Security[];
  /** The API key scope the operation needs. */
  scope?: "read" | "write";
}

const idParameter = { name: "id", in: "path", required: true, schema: { type: "string" } };

/** Every REST route; tests compare this list with the route files under app/api/v1. */
const operations: Operation[] = [
  {
    method: "post",
    path: "/api/v1/memories",
    operationId: "createMemory",
    tag: "Memories",
    summary: "Create a memory",
    description: "`content` is validated against `kind` (default `memory`, where a plain string is accepted).",
    body: createMemoryBody,
    success: { status: 201, description: "The new memory.", schema: memoryResponse },
    errors: [400, 401, 403, 409, 413, 415, 422, 429],
    scope: "write",
  },
  {
    method: "get",
    path: "/api/v1/memories",
    operationId: "listMemories",
    tag: "Memories",
    summary: "List memories",
    description:
      "Newest first with a cursor; with `q`, the best matches instead (one page). `namespace` is dot-joined.",
    query: listMemoriesQuery,
    success: { status: 200, description: "A page of memories.", schema: memoryListResponse },
    errors: [401, 403, 422, 429],
    scope: "read",
  },
  {
    method: "get",
    path: "/api/v1/memories/{id}",
    operationId: "getMemory",
    tag: "Memories",
    summary: "Get a memory",
    description: "404 when absent or not the caller's.",
    success: { status: 200, description: "The memory.", schema: memoryResponse },
    errors: [401, 403, 404, 429],
    scope: "read",
  },
  {
    method: "patch",
    path: "/api/v1/memories/{id}",
    operationId: "updateMemory",
    tag: "Memories",
    summary: "Update a memory",
    description: "A new version; a stale `expectedVersion` is a 409.",
    body: updateMemoryBody,
    success: { status: 200, description: "The updated memory.", schema: memoryResponse },
    errors: [400, 401, 403, 404, 409, 413, 415, 422, 429],
    scope: "write",
  },
  {
    method: "delete",
    path: "/api/v1/memories/{id}",
    operationId: "deleteMemory",
    tag: "Memories",
    summary: "Delete or purge a memory",
    description: "Soft delete (a restorable tombstone); `purge=true` erases the content from every version.",
    query: deleteMemoryQuery,
    success: { status: 200, description: "The tombstone.", schema: memoryResponse },
    errors: [401, 403, 404, 422, 429],
    scope: "write",
  },
  {
    method: "post",
    path: "/api/v1/memories/{id}/restore",
    operationId: "restoreMemory",
    tag: "Memories",
    summary: "Restore a deleted memory",
    success: { status: 200, description: "The restored memory.", schema: memoryResponse },
    errors: [401, 403, 404, 409, 429],
    scope: "write",
  },
  {
    method: "get",
    path: "/api/v1/memories/{id}/history",
    operationId: "memoryHistory",
    tag: "Memories",
    summary: "A memory's versions",
    description: "Every change, oldest first, with actor, reason and provenance.",
    success: { status: 200, description: "The versions.", schema: historyResponse },
    errors: [401, 403, 404, 429],
    scope: "read",
  },
  {
    method: "post",
    path: "/api/v1/memories/search",
    operationId: "searchMemories",
    tag: "Memories",
    summary: "Search memories",
    description:
      "Hybrid search (full-text with OR-ed terms, trigram, vector when configured) fused by rank. `filter` applies to metadata with `$eq $ne $gt $gte $lt $lte $in $nin`.",
    body: searchMemoriesBody,
    success: { status: 200, description: "Ranked results.", schema: searchResponse },
    errors: [400, 401, 403, 413, 415, 422, 429],
    scope: "read",
  },
  {
    method: "get",
    path: "/api/v1/threads/{id}/extraction",
    operationId: "threadExtraction",
    tag: "Threads",
    summary: "Extraction runs of a chat thread",
    description: "The latest background extraction runs with their status and proposed, applied and rejected ops.",
    success: { status: 200, description: "The thread's runs.", schema: threadExtractionResponse },
    errors: [401, 403, 404, 429],
    scope: "read",
  },
  {
    method: "post",
    path: "/api/v1/threads/{id}/extraction",
    operationId: "runThreadExtraction",
    tag: "Threads",
    summary: "Run extraction for a thread now",
    description: "Queues a run over every message after the thread's extraction cursor, e.g. after a failed run.",
    success: { status: 202, description: "Queued.", schema: extractionQueuedResponse },
    errors: [401, 403, 404, 429],
    scope: "write",
  },
  {
    method: "get",
    path: "/api/v1/me",
    operationId: "me",
    tag: "Account",
    summary: "Who the cookie or key acts as",
    success: { status: 200, description: "The principal.", schema: meResponse },
    errors: [401, 429],
  },
  {
    method: "post",
    path: "/api/v1/keys",
    operationId: "createApiKey",
    tag: "API keys",
    summary: "Issue an API key",
    description: "Session cookie only. The key is in this response once; only its hash is stored.",
    body: createKeyBody,
    success: { status: 201, description: "The key.", schema: createdKeyResponse },
    errors: [400, 401, 403, 413, 415, 422, 429],
    security: ["cookie"],
  },
  {
    method: "get",
    path: "/api/v1/keys",
    operationId: "listApiKeys",
    tag: "API keys",
    summary: "List API keys",
    description: "Without secrets; revoked keys included.",
    success: { status: 200, description: "The caller's keys.", schema: keyListResponse },
    errors: [401, 429],
  },
  {
    method: "delete",
    path: "/api/v1/keys/{id}",
    operationId: "revokeApiKey",
    tag: "API keys",
    summary: "Revoke an API key",
    description: "Session cookie only. Another user's key id is a 404.",
    success: { status: 200, description: "The revoked key.", schema: revokedKeyResponse },
    errors: [401, 403, 404, 429],
    security: ["cookie"],
  },
  {
    method: "get",
    path: "/api/v1/openapi.json",
    operationId: "openApiDocument",
    tag: "Meta",
    summary: "This document",
    success: { status: 200, description: "OpenAPI 3.1." },
    errors: [],
    security: [],
  },
];

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Malformed JSON, a body that is not UTF-8, or JSON nested deeper than 64 levels.",
  401: "No session and no key, or a malformed, unknown, revoked or expired key.",
  403: "The key lacks the scope, or a key was used where only a session may act.",
  404: "Not found, or not the caller's.",
  409: "Stale expectedVersion or a state conflict.",
  413: "The body is larger than 64 KB.",
  415: "The body is not sent as Content-Type: application/json (UTF-8).",
  422: "Invalid input; `details` lists the issues.",
  429: "The rate limit of the key, or of the signed-in user; see Retry-After.",
};

/**
 * zod's JSON Schema puts shared and recursive parts in a local `$defs`; OpenAPI resolves `$ref`s from the document
 * root, so they move to components.schemas (named ones keep their name, anonymous ones get the operation's prefix).
 */
class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, prefix: string, io: "input" | "output"): JsonSchema {
    const { $schema: _, $defs, ...root } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    const rename = (name: string) => (name.startsWith("__") ? `${prefix}${name.replace(/^_+/, "_")}` : name);
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value === null || typeof value !== "object") return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) =>
          key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/")
            ? [key, `#/components/schemas/${rename(inner.slice("#/$defs/".length))}`]
            : [key, rewrite(inner)],
        ),
      );
    };
    for (const [name, definition] of Object.entries(($defs as Record<string, JsonSchema> | undefined) ?? {})) {
      this.components[rename(name)] = rewrite(definition) as JsonSchema;
    }
    return rewrite(root) as JsonSchema;
  }
}

function queryParameters(collector: SchemaCollector, operation: Operation) {
  if (!operation.query) return [];
  const schema = collector.convert(operation.query, operation.operationId, "input");
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: property,
  }));
}

const SECURITY_SCHEMES = {
  bearer: {
    type: "http",
    scheme: "bearer",
    description: "An API key (`ml_…`) from /settings/keys, acting only inside its owner's namespace.",
  },
  cookie: { type: "apiKey", in: "cookie", name: "authjs.session-token", description: "The console's session." },
};

/** The OpenAPI 3.1 document of the REST API, generated from the zod schemas the routes validate with. */
export function openApiDocument(serverUrl?: string) {
  const collector = new SchemaCollector();
  collector.components.Error = collector.convert(errorResponseBody, "Error", "output");
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const security = operation.security ?? ["bearer", "cookie"];
    const parameters = [
      ...(operation.path.includes("{id}") ? [idParameter] : []),
      ...queryParameters(collector, operation),
    ];
    const scopeNote = operation.scope ? `\n\nAPI key scope: \`${operation.scope}\`.` : "";
    paths[operation.path] ??= {};
    (paths[operation.path] as Record<string, unknown>)[operation.method] = {
      operationId: operation.operationId,
      tags: [operation.tag],
      summary: operation.summary,
      description: `${operation.description ?? operation.summary}${scopeNote}`,
      ...(parameters.length ? { parameters } : {}),
      ...(operation.body
        ? {
            requestBody: {
              required: true,
              content: {
                "application/json": { schema: collector.convert(operation.body, operation.operationId, "input") },
              },
            },
          }
        : {}),
      responses: {
        [String(operation.success.status)]: {
          description: operation.success.description,
          ...(operation.success.schema
            ? {
                content: {
                  "application/json": {
                    schema: collector.convert(operation.success.schema, operation.operationId, "output"),
                  },
                },
              }
            : {}),
        },
        ...Object.fromEntries(
          operation.errors.map((status) => [
            String(status),
            {
              description: ERROR_DESCRIPTIONS[status],
              content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
            },
          ]),
        ),
      },
      security: security.map((name) => ({ [name]: [] })),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Memory Ledger API",
      version: "1.0.0",
      description:
        "Long-term memory for AI agents that people can see and trust. Every call acts inside the caller's namespace root. The LangGraph Store API (/api/langgraph) and the MCP server (/api/mcp) are described at /docs/api.",
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    tags: [...new Set(operations.map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: { schemas: collector.components, securitySchemes: SECURITY_SCHEMES },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
