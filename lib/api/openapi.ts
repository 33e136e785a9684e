import { z } from "zod";
import { deleteAccountInput } from "@/lib/account/confirmation";
import { deletedAccountResponse } from "@/lib/account/delete-account";
import { createdKeyResponse, createKeyBody, keyListResponse, revokedKeyResponse } from "./key-requests";
import {
  batchBody,
  createMemoryBody,
  deleteMemoryQuery,
  listMemoriesQuery,
  searchMemoriesBody,
  updateMemoryBody,
} from "./memory-requests";
import { createFeedbackBody, feedbackResponse, instructionsResponse, putInstructionsBody } from "./procedural-requests";
import {
  batchResponse,
  errorResponseBody,
  extractionQueuedResponse,
  historyResponse,
  memoryListResponse,
  memoryResponse,
  meResponse,
  revertRunResponse,
  searchResponse,
  threadExtractionResponse,
  usageResponse,
} from "./response-schemas";
import {
  approvedResponse,
  approveProposalBody,
  createRuleBody,
  listProposalsQuery,
  proposalListResponse,
  proposalResponse,
  rejectProposalBody,
  ruleListResponse,
  ruleResponse,
  settingsResponse,
  updateSettingsBody,
} from "./review-requests";
import { usageQuery } from "./usage-requests";
import {
  createdWebhookResponse,
  createWebhookBody,
  deliveryListQuery,
  deliveryListResponse,
  deliveryResponse,
  updateWebhookBody,
  webhookListResponse,
  webhookResponse,
} from "./webhook-requests";

type JsonSchema = Record<string, unknown>;
type Method = "get" | "post" | "put" | "patch" | "delete";
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

const pathParameters = (path: string) =>
  [...path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));

const WEBHOOK_KEY_NOTE = " With an API key, both the `read` and the `write` scope (deliveries carry memories).";

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
    method: "post",
    path: "/api/v1/memories/batch",
    operationId: "createMemoryBatch",
    tag: "Memories",
    summary: "Create up to 1,000 memories at once",
    description:
      "Every valid item is written in one transaction; each invalid one is reported by its index with the error a single create would have given, and writes nothing. The body may be up to 8 MB.",
    body: batchBody,
    success: { status: 201, description: "What was written and what was refused.", schema: batchResponse },
    errors: [400, 401, 403, 413, 415, 422, 429],
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
    description:
      "A new version; a stale `expectedVersion` is a 409. `pinned: true` has the memory recalled into every chat turn (a version whose reason says pinned or unpinned). `validFrom` / `validTo` say when the fact held in the world (ISO date or date-time, null clears); `validTo` before `validFrom` is a 422.",
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
      'Lexical ranking is BM25 over your own memories (typos corrected only for words that are neither English nor yours); with vectors on, `hybrid` (the default then) adds the embedding similarity, combined by score. `score` is in [0, 1] with each leg\'s value beside it. A question about you in general ("what do you know about me?") returns your profile, most used and latest memories. `asOf` (ISO date or date-time) searches the facts that held then, superseded ones included; without it, memories whose `validTo` has passed are left out. `mode: "vector"` with vectors off is a 422. `filter` applies to metadata with `$eq $ne $gt $gte $lt $lte $in $nin`.',
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
    method: "post",
    path: "/api/v1/extraction-runs/{id}/revert",
    operationId: "revertExtractionRun",
    tag: "Threads",
    summary: "Undo an extraction run",
    description:
      "Reverses every op the run applied, as new versions by the caller whose reason names the run: an inserted memory is deleted (a tombstone), an updated one goes back to the version before, a deleted one is restored. A memory changed since the run keeps that change and is listed in `skipped` with the reason. All in one transaction. A run reverts once: reverting it again, or a run that did not succeed (queued, running, failed, skipped), is a 409. Another user's run is a 404.",
    success: { status: 200, description: "What was reverted and what was left alone.", schema: revertRunResponse },
    errors: [401, 403, 404, 409, 422, 429],
    scope: "write",
  },
  {
    method: "get",
    path: "/api/v1/usage",
    operationId: "usage",
    tag: "Account",
    summary: "Model usage and cost per day",
    description:
      "Tokens and cost in US dollars per UTC day, in all and by kind (chat, extraction), from the caller's cost ledger, with today's spend against the daily budget. A range covers at most 366 days; a bad date or a reversed range is a 422.",
    query: usageQuery,
    success: { status: 200, description: "Usage per day and the budget.", schema: usageResponse },
    errors: [401, 403, 422, 429],
    scope: "read",
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
    description: "Session cookie only. Without secrets; revoked keys included.",
    success: { status: 200, description: "The caller's keys.", schema: keyListResponse },
    errors: [401, 403, 429],
    security: ["cookie"],
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
    method: "post",
    path: "/api/v1/sessions/revoke",
    operationId: "revokeSessions",
    tag: "Account",
    summary: "Sign out everywhere",
    description:
      "Session cookie only. Every session of the user, this one included, answers 401 from then on; API keys are not affected.",
    success: { status: 204, description: "Every session is signed out." },
    errors: [401, 403, 429],
    security: ["cookie"],
  },
  {
    method: "delete",
    path: "/api/v1/account",
    operationId: "deleteAccount",
    tag: "Account",
    summary: "Delete my account",
    description:
      'Session cookie only. Deletes the user and everything that is theirs, in every table; their sessions and keys answer 401 afterwards. The body must be { "confirm": "delete my account" } (anything else is a 422 and deletes nothing).',
    body: deleteAccountInput,
    success: { status: 200, description: "Rows removed per table.", schema: deletedAccountResponse },
    errors: [400, 401, 403, 413, 415, 422, 429],
    security: ["cookie"],
  },
  {
    method: "post",
    path: "/api/v1/webhooks",
    operationId: "createWebhook",
    tag: "Webhooks",
    summary: "Add a webhook endpoint",
    description: `Events are signed per Standard Webhooks with the secret, which is in this response once. The URL must be https and on a public address (private, loopback and link-local targets are refused with 422).${WEBHOOK_KEY_NOTE}`,
    body: createWebhookBody,
    success: { status: 201, description: "The endpoint and its signing secret.", schema: createdWebhookResponse },
    errors: [400, 401, 403, 413, 415, 422, 429],
    scope: "write",
  },
  {
    method: "get",
    path: "/api/v1/webhooks",
    operationId: "listWebhooks",
    tag: "Webhooks",
    summary: "List webhook endpoints",
    description: "Without secrets; a disabled endpoint says why.",
    success: { status: 200, description: "The caller's endpoints.", schema: webhookListResponse },
    errors: [401, 403, 429],
    scope: "read",
  },
  {
    method: "get",
    path: "/api/v1/webhooks/{id}",
    operationId: "getWebhook",
    tag: "Webhooks",
    summary: "Get a webhook endpoint",
    success: { status: 200, description: "The endpoint.", schema: webhookResponse },
    errors: [401, 403, 404, 429],
    scope: "read",
  },
  {
    method: "patch",
    path: "/api/v1/webhooks/{id}",
    operationId: "updateWebhook",
    tag: "Webhooks",
    summary: "Enable or disable a webhook endpoint",
    description: `\`{ "enabled": true }\` turns an endpoint disabled after repeated failures back on.${WEBHOOK_KEY_NOTE}`,
    body: updateWebhookBody,
    success: { status: 200, description: "The endpoint.", schema: webhookResponse },
    errors: [400, 401, 403, 404, 413, 415, 422, 429],
    scope: "write",
  },
  {
    method: "delete",
    path: "/api/v1/webhooks/{id}",
    operationId: "deleteWebhook",
    tag: "Webhooks",
    summary: "Delete a webhook endpoint and its delivery log",
    description: `Another user's endpoint id is a 404.${WEBHOOK_KEY_NOTE}`,
    success: { status: 200, description: "The deleted endpoint.", schema: webhookResponse },
    errors: [401, 403, 404, 429],
    scope: "write",
  },
  {
    method: "get",
    path: "/api/v1/webhooks/{id}/deliveries",
    operationId: "listWebhookDeliveries",
    tag: "Webhooks",
    summary: "An endpoint's delivery log",
    description: "Newest first: status, attempts, last status code and error, timestamps and the payload sent.",
    query: deliveryListQuery,
    success: { status: 200, description: "A page of deliveries.", schema: deliveryListResponse },
    errors: [401, 403, 404, 422, 429],
    scope: "read",
  },
  {
    method: "post",
    path: "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver",
    operationId: "redeliverWebhook",
    tag: "Webhooks",
    summary: "Send a finished delivery again",
    description: `One more attempt with the same \`webhook-id\`; 409 while the delivery is still being attempted or the endpoint is disabled.${WEBHOOK_KEY_NOTE}`,
    success: { status: 202, description: "The delivery, queued.", schema: deliveryResponse },
    errors: [401, 403, 404, 409, 429],
    scope: "write",
  },
  {
    method: "get",
    path: "/api/v1/proposals",
    operationId: "listProposals",
    tag: "Review",
    summary: "List proposals",
    description:
      "Changes waiting for (or decided by) the user's approval, newest first with a cursor. Pending proposals are never recalled or searched.",
    query: listProposalsQuery,
    success: { status: 200, description: "A page of proposals.", schema: proposalListResponse },
    errors: [401, 403, 422, 429],
    scope: "read",
  },
  {
    method: "post",
    path: "/api/v1/proposals/{id}/approve",
    operationId: "approveProposal",
    tag: "Review",
    summary: "Approve a proposal",
    description:
      "Session cookie only. Writes it through the store with the proposal's source; `content` approves it as edited. 409 with the current `memory` (and `proposal`) beside the error when the memory changed since, or the proposal was already decided.",
    body: approveProposalBody,
    success: { status: 200, description: "The decided proposal and the memory written.", schema: approvedResponse },
    errors: [400, 401, 403, 404, 409, 413, 415, 422, 429],
    security: ["cookie"],
  },
  {
    method: "post",
    path: "/api/v1/proposals/{id}/reject",
    operationId: "rejectProposal",
    tag: "Review",
    summary: "Reject a proposal",
    description:
      "Session cookie only. A rejected insert suppresses the same fact in later extraction runs, like a deleted memory.",
    body: rejectProposalBody,
    success: { status: 200, description: "The rejected proposal.", schema: proposalResponse },
    errors: [400, 401, 403, 404, 409, 413, 415, 422, 429],
    security: ["cookie"],
  },
  {
    method: "get",
    path: "/api/v1/rules",
    operationId: "listRules",
    tag: "Rules",
    summary: "List rules",
    success: { status: 200, description: "The caller's rules, oldest first.", schema: ruleListResponse },
    errors: [401, 403, 422, 429],
    scope: "read",
  },
  {
    method: "post",
    path: "/api/v1/rules",
    operationId: "createRule",
    tag: "Rules",
    summary: "Add a rule",
    description:
      "The chat model and the manager are shown every rule; a write by a model or an app whose words contain one of `terms` is not made, and the error or run names the rule. The person's own writes are not bound.",
    body: createRuleBody,
    success: { status: 201, description: "The rule.", schema: ruleResponse },
    errors: [400, 401, 403, 413, 415, 422, 429],
    scope: "write",
  },
  {
    method: "delete",
    path: "/api/v1/rules/{id}",
    operationId: "deleteRule",
    tag: "Rules",
    summary: "Delete a rule",
    description: "Session cookie only. Another user's rule id is a 404.",
    success: { status: 200, description: "The deleted rule.", schema: ruleResponse },
    errors: [401, 403, 404, 422, 429],
    security: ["cookie"],
  },
  {
    method: "get",
    path: "/api/v1/settings",
    operationId: "getSettings",
    tag: "Settings",
    summary: "Get settings",
    success: { status: 200, description: "The caller's settings.", schema: settingsResponse },
    errors: [401, 403, 422, 429],
    scope: "read",
  },
  {
    method: "patch",
    path: "/api/v1/settings",
    operationId: "updateSettings",
    tag: "Settings",
    summary: "Change settings",
    description: "Session cookie only. `review`: `off`, `deletes` (default) or `all`.",
    body: updateSettingsBody,
    success: { status: 200, description: "The settings now.", schema: settingsResponse },
    errors: [400, 401, 403, 413, 415, 422, 429],
    security: ["cookie"],
  },
  {
    method: "post",
    path: "/api/v1/feedback",
    operationId: "createFeedback",
    tag: "Instructions",
    summary: "Rate an answer",
    description:
      "Thumbs up or down on one of the caller's assistant answers, with an optional comment (at most 2,000 characters). Stored with the answer's thread and the instructions version it ran with; a queued optimizer pass reads it and proposes new instructions. Another user's message is a 404; a message that is not an assistant's answer is a 422.",
    body: createFeedbackBody,
    success: { status: 201, description: "The feedback.", schema: feedbackResponse },
    errors: [400, 401, 403, 404, 413, 415, 422, 429],
    scope: "write",
  },
  {
    method: "get",
    path: "/api/v1/instructions",
    operationId: "getInstructions",
    tag: "Instructions",
    summary: "Get instructions",
    description: "The user's standing instructions to the chat model (null until first written) and every version.",
    success: { status: 200, description: "The instructions and their history.", schema: instructionsResponse },
    errors: [401, 403, 422, 429],
    scope: "read",
  },
  {
    method: "put",
    path: "/api/v1/instructions",
    operationId: "putInstructions",
    tag: "Instructions",
    summary: "Edit instructions",
    description:
      "Session cookie only. A new version by the user; with `expectedVersion` (0 before the first), a 409 when another version came first.",
    body: putInstructionsBody,
    success: { status: 200, description: "The instructions now and their history.", schema: instructionsResponse },
    errors: [400, 401, 403, 409, 413, 415, 422, 429],
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
    const parameters = [...pathParameters(operation.path), ...queryParameters(collector, operation)];
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
