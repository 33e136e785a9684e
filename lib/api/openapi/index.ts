import { errorResponseBody } from "../response-schemas";
import { accountOperations } from "./account";
import { consolidationOperations } from "./consolidation";
import { instructionOperations } from "./instructions";
import { memoryOperations } from "./memories";
import type { Operation } from "./operation";
import { reviewOperations } from "./review";
import { ERROR_DESCRIPTIONS, type JsonSchema, SchemaCollector } from "./schemas";
import { threadOperations } from "./threads";
import { webhookOperations } from "./webhooks";

const pathParameters = (path: string) =>
  [...path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));

/** Every REST route; tests compare this list with the route files under app/api/v1. */
const operations: Operation[] = [
  ...memoryOperations,
  ...threadOperations,
  ...accountOperations,
  ...webhookOperations,
  ...reviewOperations,
  ...instructionOperations,
  ...consolidationOperations,
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
