import "../support/route-mocks";
import { readdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { bindingFor, tableFingerprints } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { setEnv } from "../support/env";
import { routeHarness } from "../support/route-harness";
import {
  asHeaderBytes,
  bytes,
  CookieJar,
  cookiesFrom,
  expectJsonRefusal,
  expectLocalRedirect,
  expectNoServerError,
  type Handler,
  jsonWith,
  nestedArrays,
  nestedObjects,
  type Outcome,
  outcomeOf,
  type Params,
  settle,
} from "./support";

/**
 * Every HTTP endpoint in app/ (and the sign-in and registration server actions) against hostile input: malformed and
 * mistyped JSON, huge and deeply nested bodies, bytes that are not UTF-8, SQL metacharacters in ids, queries and
 * namespaces, header tricks. A refusal is a 4xx with a JSON error message, and refused requests write nothing.
 */

setEnv({ AUTH_SECRET: "hostile-input-test-secret-0123456789", AUTH_GUESTS: "true" });
// The suite sends thousands of requests as one user from one address; the limits have their own tests.
setEnv({
  API_RATE_LIMIT_PER_MINUTE: "1000000",
  AUTH_RATE_LIMIT_PER_MINUTE: "1000000",
  AUTH_EMAIL_RATE_LIMIT_PER_MINUTE: "1000000",
});

const memories = await import("@/app/api/v1/memories/route");
const memory = await import("@/app/api/v1/memories/[id]/route");
const history = await import("@/app/api/v1/memories/[id]/history/route");
const restore = await import("@/app/api/v1/memories/[id]/restore/route");
const search = await import("@/app/api/v1/memories/search/route");
const batch = await import("@/app/api/v1/memories/batch/route");
const me = await import("@/app/api/v1/me/route");
const keys = await import("@/app/api/v1/keys/route");
const key = await import("@/app/api/v1/keys/[id]/route");
const revokeSessions = await import("@/app/api/v1/sessions/revoke/route");
const account = await import("@/app/api/v1/account/route");
const extraction = await import("@/app/api/v1/threads/[id]/extraction/route");
const revertRun = await import("@/app/api/v1/extraction-runs/[id]/revert/route");
const revertTurn = await import("@/app/api/v1/messages/[id]/revert/route");
const consolidationRuns = await import("@/app/api/v1/consolidation-runs/route");
const consolidationRun = await import("@/app/api/v1/consolidation-runs/[id]/route");
const revertConsolidation = await import("@/app/api/v1/consolidation-runs/[id]/revert/route");
const memoryHealth = await import("@/app/api/v1/memory-health/route");
const usage = await import("@/app/api/v1/usage/route");
const webhooks = await import("@/app/api/v1/webhooks/route");
const webhook = await import("@/app/api/v1/webhooks/[id]/route");
const webhookDeliveries = await import("@/app/api/v1/webhooks/[id]/deliveries/route");
const webhookRedeliver = await import("@/app/api/v1/webhooks/[id]/deliveries/[deliveryId]/redeliver/route");
const proposals = await import("@/app/api/v1/proposals/route");
const approve = await import("@/app/api/v1/proposals/[id]/approve/route");
const reject = await import("@/app/api/v1/proposals/[id]/reject/route");
const rules = await import("@/app/api/v1/rules/route");
const rule = await import("@/app/api/v1/rules/[id]/route");
const settings = await import("@/app/api/v1/settings/route");
const feedback = await import("@/app/api/v1/feedback/route");
const instructions = await import("@/app/api/v1/instructions/route");
const openapi = await import("@/app/api/v1/openapi.json/route");
const lgItems = await import("@/app/api/langgraph/store/items/route");
const lgSearch = await import("@/app/api/langgraph/store/items/search/route");
const lgNamespaces = await import("@/app/api/langgraph/store/namespaces/route");
const mcp = await import("@/app/api/mcp/route");
const chat = await import("@/app/(chat)/api/chat/route");
const health = await import("@/app/api/health/route");
const metricsRoute = await import("@/app/api/metrics/route");
const exportRoute = await import("@/app/(console)/memories/export/route");
const nextauth = await import("@/app/(auth)/api/auth/[...nextauth]/route");
const guest = await import("@/app/(auth)/api/auth/guest/route");
const authActions = await import("@/app/(auth)/actions");
const { createApiKey } = await import("@/lib/auth/api-keys");
const { registerUser } = await import("@/lib/auth/users");

const ORIGIN = "http://localhost";
/** How many hostile requests ran, printed at the end. */
const counted = { cases: 0 };
afterAll(() => {
  console.info(`hostile-input: ${counted.cases} hostile requests`);
});
const MB = 1024 * 1024;
const JSON_TYPE = "application/json";
const SQL_INJECTION = "'; drop table memories; --";
/** Ids no route may pass to SQL as they are; each must be a plain 404. */
const HOSTILE_IDS = [
  SQL_INJECTION,
  "00000000-0000-0000-0000-000000000000' or '1'='1",
  "%",
  "_",
  "\\",
  "%FF",
  "\uFFFD",
  "\uD800",
  "\u0000",
  "../../etc/passwd",
  "a".repeat(10_000),
  "00000000-0000-0000-0000-000000000000",
];
const OWNER_EMAIL = "owner@example.com";
const OWNER_PASSWORD = "correct horse battery";

/** How a handler is called: the route's own URL, method, params and headers. */
interface Call {
  method: string;
  path: string;
  query?: string;
  params?: Params;
  headers?: HeadersInit;
  body?: BodyInit;
  /** Acts as the signed-in fixture user (default) or as nobody. */
  signedIn?: boolean;
}

async function send(handler: Handler, call: Call): Promise<Outcome> {
  routeHarness.principal = call.signedIn === false ? null : fixture.principal;
  const request = new Request(`${ORIGIN}${call.path}${call.query ?? ""}`, {
    method: call.method,
    headers: call.headers,
    body: call.body,
  });
  const response = await handler(request, { params: Promise.resolve(call.params ?? {}) as Promise<never> });
  return outcomeOf(response);
}

/** Where the fixture user's data lives, made once per database. */
const fixture = {
  principal: null as Principal | null,
  userId: "",
  memoryId: "",
  apiKey: "",
};

interface BodySpec {
  /** A body the endpoint accepts. */
  valid: () => Record<string, unknown>;
  /** The valid body with one field of a wrong type each: arrays, numbers, null, strings where numbers belong. */
  wrongTypes: Record<string, unknown>;
  /** The valid body with `value` where arbitrary JSON is accepted (metadata, content, value, arguments). */
  withJson: (value: unknown) => unknown;
  /** The valid body with `text` in a free-text field. */
  withText: (text: string) => unknown;
}

interface Endpoint {
  name: string;
  method: string;
  path: string;
  query?: string;
  handler: Handler;
  params?: Params;
  /** caller: session or key; session: the session cookie alone (a key header is ignored); public: anyone. */
  access: "caller" | "session" | "public";
  /** The header this surface reads keys from. */
  keyHeader?: "authorization" | "x-api-key";
  headers?: Record<string, string>;
  body?: BodySpec;
  /** The route's id parameter, for the hostile-id table. */
  idParam?: string;
  /** MCP refuses a bad tool call inside a 200 JSON-RPC response, as the protocol says. */
  refusesInBand?: boolean;
  /** A batch refuses bad items by index inside its 201 (`rejected`), writing nothing for them. */
  refusesItemsInBand?: boolean;
}

const mcpHeaders = { accept: "application/json, text/event-stream" };
const mcpCall = (args: unknown) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "add_memory", arguments: args },
});
const chatBody = (text: unknown) => ({
  id: "hostile-thread",
  trigger: "submit-message",
  message: { id: "m1", role: "user", parts: [{ type: "text", text }] },
});

function endpoints(): Endpoint[] {
  const memoryParams = { id: fixture.memoryId };
  return [
    {
      name: "POST /api/v1/memories",
      method: "POST",
      path: "/api/v1/memories",
      handler: memories.POST,
      access: "caller",
      body: {
        valid: () => ({ content: "hostile", namespace: ["prefs"], metadata: { a: 1 } }),
        wrongTypes: {
          "namespace as string": { content: "x", namespace: "prefs" },
          "namespace of numbers": { content: "x", namespace: [1, 2] },
          "metadata as array": { content: "x", metadata: [1] },
          "metadata as null": { content: "x", metadata: null },
          "kind as number": { content: "x", kind: 7 },
          "key as object": { content: "x", key: { a: 1 } },
          "content missing": { namespace: ["a"] },
          "content as number for the default kind": { content: 42 },
          "unknown field": { content: "x", admin: true },
          "namespace outside the root": { content: "x", namespace: ["..", "users"] },
          "validFrom not a date": { content: "x", validFrom: "last month" },
          "validFrom as number": { content: "x", validFrom: 1 },
          "validFrom in year 0": { content: "x", validFrom: "0000-01-01" },
          "validTo before validFrom": { content: "x", validFrom: "2026-05-01", validTo: "2026-04-01" },
          "pinned as string": { content: "x", pinned: "true" },
        },
        withJson: (value) => ({ content: "x", metadata: { deep: value } }),
        withText: (text) => ({ content: text }),
      },
    },
    {
      name: "GET /api/v1/memories",
      method: "GET",
      path: "/api/v1/memories",
      handler: memories.GET,
      access: "caller",
    },
    {
      name: "GET /api/v1/memories/{id}",
      method: "GET",
      path: `/api/v1/memories/${fixture.memoryId}`,
      params: memoryParams,
      handler: memory.GET,
      access: "caller",
      idParam: "id",
    },
    {
      name: "PATCH /api/v1/memories/{id}",
      method: "PATCH",
      path: `/api/v1/memories/${fixture.memoryId}`,
      params: memoryParams,
      handler: memory.PATCH,
      access: "caller",
      idParam: "id",
      body: {
        valid: () => ({ content: "patched", expectedVersion: 1 }),
        wrongTypes: {
          "expectedVersion as string": { content: "x", expectedVersion: "1" },
          "expectedVersion as float": { content: "x", expectedVersion: 1.5 },
          "expectedVersion negative": { content: "x", expectedVersion: -1 },
          "expectedVersion huge": { content: "x", expectedVersion: 1e300 },
          "metadata as string": { metadata: "x" },
          "kind as array": { kind: ["memory"] },
          "content as number": { content: 42 },
          "unknown field": { content: "x", userId: "someone" },
          "pinned as string": { pinned: "yes" },
          "pinned as null": { pinned: null },
          "validTo not a date": { validTo: "2026-13-45" },
          "validTo before validFrom": { validFrom: "2026-05-01T00:00:00Z", validTo: "2026-04-30T23:59:59Z" },
        },
        withJson: (value) => ({ metadata: { deep: value } }),
        withText: (text) => ({ content: text }),
      },
    },
    {
      name: "DELETE /api/v1/memories/{id}",
      method: "DELETE",
      path: `/api/v1/memories/${fixture.memoryId}`,
      params: memoryParams,
      handler: memory.DELETE,
      access: "caller",
      idParam: "id",
    },
    {
      name: "POST /api/v1/memories/{id}/restore",
      method: "POST",
      path: `/api/v1/memories/${fixture.memoryId}/restore`,
      params: memoryParams,
      handler: restore.POST,
      access: "caller",
      idParam: "id",
    },
    {
      name: "GET /api/v1/memories/{id}/history",
      method: "GET",
      path: `/api/v1/memories/${fixture.memoryId}/history`,
      params: memoryParams,
      handler: history.GET,
      access: "caller",
      idParam: "id",
    },
    {
      name: "POST /api/v1/memories/batch",
      method: "POST",
      path: "/api/v1/memories/batch",
      handler: batch.POST,
      access: "caller",
      refusesItemsInBand: true,
      body: {
        valid: () => ({ memories: [{ content: "batched" }] }),
        wrongTypes: {
          "memories as object": { memories: { content: "x" } },
          "memories as string": { memories: "x" },
          "memories empty": { memories: [] },
          "memories over the limit": { memories: Array.from({ length: 1_001 }, () => ({ content: "x" })) },
          "an item of a wrong type": { memories: [{ content: 42 }] },
          "an item with an unknown field": { memories: [{ content: "x", userId: "someone" }] },
          "unknown field": { memories: [{ content: "x" }], userId: "someone" },
        },
        withJson: (value) => ({ memories: [{ content: "x", metadata: { deep: value } }] }),
        withText: (text) => ({ memories: [{ content: text }] }),
      },
    },
    {
      name: "POST /api/v1/memories/search",
      method: "POST",
      path: "/api/v1/memories/search",
      handler: search.POST,
      access: "caller",
      body: {
        valid: () => ({ query: "hostile", limit: 5 }),
        wrongTypes: {
          "limit as string": { query: "x", limit: "10" },
          "limit as float": { query: "x", limit: 2.5 },
          "limit as zero": { query: "x", limit: 0 },
          "query as number": { query: 42 },
          "query as null": { query: null },
          "query as array": { query: ["a"] },
          "filter as array": { query: "x", filter: [1] },
          "filter with an unknown operator": { query: "x", filter: { a: { $where: "1" } } },
          "namespace as string": { query: "x", namespace: "a.b" },
          "kind as number": { query: "x", kind: 3 },
          "asOf not a date": { query: "x", asOf: "yesterday" },
          "asOf as number": { query: "x", asOf: 20260101 },
        },
        withJson: (value) => ({ query: "x", filter: { a: { $eq: value } } }),
        withText: (text) => ({ query: text }),
      },
    },
    { name: "GET /api/v1/me", method: "GET", path: "/api/v1/me", handler: me.GET, access: "caller" },
    {
      name: "POST /api/v1/keys",
      method: "POST",
      path: "/api/v1/keys",
      handler: keys.POST,
      access: "caller",
      body: {
        valid: () => ({ name: "hostile", scopes: ["read"] }),
        wrongTypes: {
          "scopes as string": { name: "k", scopes: "read" },
          "scopes with an unknown scope": { name: "k", scopes: ["admin"] },
          "scopes empty": { name: "k", scopes: [] },
          "name as number": { name: 5, scopes: ["read"] },
          "name as null": { name: null, scopes: ["read"] },
          "expiresAt as number": { name: "k", scopes: ["read"], expiresAt: 1 },
          "expiresAt in the past": { name: "k", scopes: ["read"], expiresAt: "2000-01-01T00:00:00Z" },
          "expiresAt out of range": { name: "k", scopes: ["read"], expiresAt: "+275760-09-13T00:00:00.001Z" },
          "unknown field": { name: "k", scopes: ["read"], userId: "someone" },
        },
        withJson: (value) => ({ name: "k", scopes: [value] }),
        withText: (text) => ({ name: text, scopes: ["read"] }),
      },
    },
    { name: "GET /api/v1/keys", method: "GET", path: "/api/v1/keys", handler: keys.GET, access: "caller" },
    {
      name: "DELETE /api/v1/keys/{id}",
      method: "DELETE",
      path: "/api/v1/keys/00000000-0000-4000-8000-000000000000",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      handler: key.DELETE,
      access: "caller",
      idParam: "id",
    },
    {
      name: "POST /api/v1/sessions/revoke",
      method: "POST",
      path: "/api/v1/sessions/revoke",
      handler: revokeSessions.POST,
      access: "caller",
    },
    {
      name: "DELETE /api/v1/account",
      method: "DELETE",
      path: "/api/v1/account",
      handler: account.DELETE,
      access: "caller",
      body: {
        valid: () => ({ confirm: "delete my account" }),
        wrongTypes: {
          "confirm as number": { confirm: 1 },
          "confirm as null": { confirm: null },
          "confirm another sentence": { confirm: "delete my acount" },
          "confirm missing": {},
          "unknown field": { confirm: "delete my account", userId: "someone" },
        },
        withJson: (value) => ({ confirm: value }),
        withText: (text) => ({ confirm: text }),
      },
    },
    {
      name: "POST /api/v1/webhooks",
      method: "POST",
      path: "/api/v1/webhooks",
      handler: webhooks.POST,
      access: "caller",
      body: {
        valid: () => ({ url: "https://hooks.example.com/in", events: ["memory.created"] }),
        wrongTypes: {
          "url as number": { url: 42, events: ["memory.created"] },
          "url loopback": { url: "https://127.0.0.1/in", events: ["memory.created"] },
          "url metadata service": { url: "https://169.254.169.254/latest", events: ["memory.created"] },
          "url plain http": { url: "http://hooks.example.com/in", events: ["memory.created"] },
          "url javascript:": { url: "javascript:alert(1)", events: ["memory.created"] },
          "events as string": { url: "https://hooks.example.com/in", events: "memory.created" },
          "events with an unknown type": { url: "https://hooks.example.com/in", events: ["memory.exploded"] },
          "events empty": { url: "https://hooks.example.com/in", events: [] },
          "unknown field": { url: "https://hooks.example.com/in", events: ["memory.created"], secret: "mine" },
        },
        withJson: (value) => ({ url: "https://hooks.example.com/in", events: [value] }),
        withText: (text) => ({ url: text, events: ["memory.created"] }),
      },
    },
    { name: "GET /api/v1/webhooks", method: "GET", path: "/api/v1/webhooks", handler: webhooks.GET, access: "caller" },
    {
      name: "GET /api/v1/webhooks/{id}",
      method: "GET",
      path: "/api/v1/webhooks/00000000-0000-4000-8000-000000000000",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      handler: webhook.GET,
      access: "caller",
      idParam: "id",
    },
    {
      name: "PATCH /api/v1/webhooks/{id}",
      method: "PATCH",
      path: "/api/v1/webhooks/00000000-0000-4000-8000-000000000000",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      handler: webhook.PATCH,
      access: "caller",
      idParam: "id",
      body: {
        valid: () => ({ enabled: true }),
        wrongTypes: {
          "enabled as string": { enabled: "true" },
          "enabled as null": { enabled: null },
          "enabled missing": {},
          "unknown field": { enabled: true, url: "https://127.0.0.1/" },
        },
        withJson: (value) => ({ enabled: value }),
        withText: (text) => ({ enabled: text }),
      },
    },
    {
      name: "DELETE /api/v1/webhooks/{id}",
      method: "DELETE",
      path: "/api/v1/webhooks/00000000-0000-4000-8000-000000000000",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      handler: webhook.DELETE,
      access: "caller",
      idParam: "id",
    },
    {
      name: "GET /api/v1/webhooks/{id}/deliveries",
      method: "GET",
      path: "/api/v1/webhooks/00000000-0000-4000-8000-000000000000/deliveries",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      handler: webhookDeliveries.GET,
      access: "caller",
      idParam: "id",
    },
    {
      name: "POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver",
      method: "POST",
      path: "/api/v1/webhooks/00000000-0000-4000-8000-000000000000/deliveries/00000000-0000-4000-8000-000000000000/redeliver",
      params: { id: "00000000-0000-4000-8000-000000000000", deliveryId: "00000000-0000-4000-8000-000000000000" },
      handler: webhookRedeliver.POST,
      access: "caller",
      idParam: "deliveryId",
    },
    {
      name: "GET /api/v1/threads/{id}/extraction",
      method: "GET",
      path: "/api/v1/threads/no-such-thread/extraction",
      params: { id: "no-such-thread" },
      handler: extraction.GET,
      access: "caller",
      idParam: "id",
    },
    {
      name: "POST /api/v1/threads/{id}/extraction",
      method: "POST",
      path: "/api/v1/threads/no-such-thread/extraction",
      params: { id: "no-such-thread" },
      handler: extraction.POST,
      access: "caller",
      idParam: "id",
    },
    {
      name: "POST /api/v1/extraction-runs/{id}/revert",
      method: "POST",
      path: "/api/v1/extraction-runs/00000000-0000-4000-8000-000000000000/revert",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      handler: revertRun.POST,
      access: "caller",
      idParam: "id",
    },
    {
      name: "POST /api/v1/consolidation-runs",
      method: "POST",
      path: "/api/v1/consolidation-runs",
      handler: consolidationRuns.POST,
      access: "caller",
      body: {
        valid: () => ({}),
        wrongTypes: {
          "unknown field": { force: true },
          "a trigger": { trigger: "daily" },
          "a run id": { runId: "00000000-0000-4000-8000-000000000000" },
        },
        withJson: (value) => ({ options: value }),
        withText: (text) => ({ note: text }),
      },
    },
    {
      name: "GET /api/v1/consolidation-runs",
      method: "GET",
      path: "/api/v1/consolidation-runs",
      query: "?limit=5",
      handler: consolidationRuns.GET,
      access: "caller",
    },
    {
      name: "GET /api/v1/consolidation-runs/{id}",
      method: "GET",
      path: "/api/v1/consolidation-runs/00000000-0000-4000-8000-000000000000",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      handler: consolidationRun.GET,
      access: "caller",
      idParam: "id",
    },
    {
      name: "POST /api/v1/consolidation-runs/{id}/revert",
      method: "POST",
      path: "/api/v1/consolidation-runs/00000000-0000-4000-8000-000000000000/revert",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      handler: revertConsolidation.POST,
      access: "caller",
      idParam: "id",
    },
    {
      name: "GET /api/v1/memory-health",
      method: "GET",
      path: "/api/v1/memory-health",
      handler: memoryHealth.GET,
      access: "caller",
    },
    {
      name: "POST /api/v1/messages/{id}/revert",
      method: "POST",
      path: "/api/v1/messages/no-such-message/revert",
      params: { id: "no-such-message" },
      handler: revertTurn.POST,
      access: "caller",
      idParam: "id",
    },
    {
      name: "GET /api/v1/usage",
      method: "GET",
      path: "/api/v1/usage",
      query: "?from=2026-01-01&to=2026-01-31",
      handler: usage.GET,
      access: "caller",
    },
    {
      name: "GET /api/v1/proposals",
      method: "GET",
      path: "/api/v1/proposals",
      query: "?status=pending",
      handler: proposals.GET,
      access: "caller",
    },
    {
      name: "POST /api/v1/proposals/{id}/approve",
      method: "POST",
      path: "/api/v1/proposals/00000000-0000-4000-8000-000000000000/approve",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      handler: approve.POST,
      access: "caller",
      idParam: "id",
      body: {
        valid: () => ({ content: "approved as edited" }),
        wrongTypes: {
          "unknown field": { content: "x", force: true },
          "content as number": { content: 5 },
          "status instead of content": { status: "approved" },
        },
        withJson: (value) => ({ content: { deep: value } }),
        withText: (text) => ({ content: text }),
      },
    },
    {
      name: "POST /api/v1/proposals/{id}/reject",
      method: "POST",
      path: "/api/v1/proposals/00000000-0000-4000-8000-000000000000/reject",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      handler: reject.POST,
      access: "caller",
      idParam: "id",
      body: {
        valid: () => ({ reason: "not true" }),
        wrongTypes: {
          "reason as number": { reason: 1 },
          "reason as array": { reason: ["x"] },
          "reason empty": { reason: "  " },
          "unknown field": { reason: "x", status: "approved" },
        },
        withJson: (value) => ({ reason: "x", extra: value }),
        withText: (text) => ({ reason: text }),
      },
    },
    {
      name: "POST /api/v1/rules",
      method: "POST",
      path: "/api/v1/rules",
      handler: rules.POST,
      access: "caller",
      body: {
        valid: () => ({ text: "never remember my health", terms: ["health"] }),
        wrongTypes: {
          "text empty": { text: "" },
          "text blank": { text: "   " },
          "text as number": { text: 5 },
          "text as null": { text: null },
          "terms as string": { text: "x", terms: "health" },
          "terms with an empty term": { text: "x", terms: [""] },
          "terms with punctuation only": { text: "x", terms: ["!!"] },
          "terms of numbers": { text: "x", terms: [1] },
          "unknown field": { text: "x", userId: "someone" },
        },
        withJson: (value) => ({ text: "x", terms: [value] }),
        withText: (text) => ({ text }),
      },
    },
    { name: "GET /api/v1/rules", method: "GET", path: "/api/v1/rules", handler: rules.GET, access: "caller" },
    {
      name: "DELETE /api/v1/rules/{id}",
      method: "DELETE",
      path: "/api/v1/rules/00000000-0000-4000-8000-000000000000",
      params: { id: "00000000-0000-4000-8000-000000000000" },
      handler: rule.DELETE,
      access: "caller",
      idParam: "id",
    },
    {
      name: "POST /api/v1/feedback",
      method: "POST",
      path: "/api/v1/feedback",
      handler: feedback.POST,
      access: "caller",
      body: {
        valid: () => ({ messageId: "msg-unknown", rating: "down", comment: "too long" }),
        wrongTypes: {
          "rating unknown": { messageId: "m", rating: "meh" },
          "rating missing": { messageId: "m" },
          "messageId as number": { messageId: 5, rating: "up" },
          "messageId empty": { messageId: "", rating: "up" },
          "comment as object": { messageId: "m", rating: "up", comment: {} },
          "comment too long": { messageId: "m", rating: "up", comment: "x".repeat(2_001) },
          "unknown field": { messageId: "m", rating: "up", userId: "someone" },
        },
        withJson: (value) => ({ messageId: "m", rating: "up", extra: value }),
        withText: (text) => ({ messageId: "m", rating: "up", comment: text }),
      },
    },
    {
      name: "GET /api/v1/instructions",
      method: "GET",
      path: "/api/v1/instructions",
      handler: instructions.GET,
      access: "caller",
    },
    {
      name: "PUT /api/v1/instructions",
      method: "PUT",
      path: "/api/v1/instructions",
      handler: instructions.PUT,
      access: "caller",
      body: {
        valid: () => ({ text: "Use metric units.", expectedVersion: 0 }),
        wrongTypes: {
          "text missing": {},
          "text as number": { text: 5 },
          "text too long": { text: "x".repeat(4_001) },
          "expectedVersion negative": { text: "x", expectedVersion: -1 },
          "expectedVersion as string": { text: "x", expectedVersion: "1" },
          "unknown field": { text: "x", version: 3 },
        },
        withJson: (value) => ({ text: "x", extra: value }),
        withText: (text) => ({ text }),
      },
    },
    { name: "GET /api/v1/settings", method: "GET", path: "/api/v1/settings", handler: settings.GET, access: "caller" },
    {
      name: "PATCH /api/v1/settings",
      method: "PATCH",
      path: "/api/v1/settings",
      handler: settings.PATCH,
      access: "caller",
      body: {
        valid: () => ({ review: "deletes" }),
        wrongTypes: {
          "review unknown": { review: "sometimes" },
          "review as number": { review: 1 },
          "review as null": { review: null },
          "nothing to change": {},
          "unknown field": { review: "off", userId: "someone" },
        },
        withJson: (value) => ({ review: "off", extra: value }),
        withText: (text) => ({ review: text }),
      },
    },
    {
      name: "GET /api/v1/openapi.json",
      method: "GET",
      path: "/api/v1/openapi.json",
      handler: openapi.GET,
      access: "public",
    },
    {
      name: "PUT /api/langgraph/store/items",
      method: "PUT",
      path: "/api/langgraph/store/items",
      handler: lgItems.PUT,
      access: "caller",
      keyHeader: "x-api-key",
      body: {
        valid: () => ({ namespace: ["lg"], key: "k1", value: { a: 1 } }),
        wrongTypes: {
          "value as array": { namespace: ["lg"], key: "k", value: [1] },
          "value as string": { namespace: ["lg"], key: "k", value: "v" },
          "value as null": { namespace: ["lg"], key: "k", value: null },
          "namespace as string": { namespace: "lg", key: "k", value: {} },
          "key as number": { namespace: ["lg"], key: 1, value: {} },
          "key empty": { namespace: ["lg"], key: "", value: {} },
          "ttl as string": { namespace: ["lg"], key: "k", value: {}, ttl: "60" },
          "index as number": { namespace: ["lg"], key: "k", value: {}, index: 1 },
          "namespace with an empty label": { namespace: [""], key: "k", value: {} },
          "namespace with a dotted label": { namespace: ["a.b"], key: "k", value: {} },
        },
        withJson: (value) => ({ namespace: ["lg"], key: "k", value: { deep: value } }),
        withText: (text) => ({ namespace: ["lg"], key: text, value: {} }),
      },
    },
    {
      name: "GET /api/langgraph/store/items",
      method: "GET",
      path: "/api/langgraph/store/items",
      query: "?namespace=lg&key=k1",
      handler: lgItems.GET,
      access: "caller",
      keyHeader: "x-api-key",
    },
    {
      name: "DELETE /api/langgraph/store/items",
      method: "DELETE",
      path: "/api/langgraph/store/items",
      handler: lgItems.DELETE,
      access: "caller",
      keyHeader: "x-api-key",
      body: {
        valid: () => ({ namespace: ["fixture-lg"], key: "fixture" }),
        wrongTypes: {
          "namespace as string": { namespace: "fixture-lg", key: "fixture" },
          "namespace as null": { namespace: null, key: "fixture" },
          "key as array": { namespace: ["fixture-lg"], key: ["fixture"] },
          "key missing": { namespace: ["fixture-lg"] },
        },
        withJson: (value) => ({ namespace: [value], key: "fixture" }),
        withText: (text) => ({ namespace: ["fixture-lg"], key: text }),
      },
    },
    {
      name: "POST /api/langgraph/store/items/search",
      method: "POST",
      path: "/api/langgraph/store/items/search",
      handler: lgSearch.POST,
      access: "caller",
      keyHeader: "x-api-key",
      body: {
        valid: () => ({ namespace_prefix: ["lg"], limit: 5 }),
        wrongTypes: {
          "limit as string": { limit: "5" },
          "offset as string": { offset: "0" },
          "offset negative": { offset: -1 },
          "limit huge": { limit: 1e9 },
          "namespace_prefix as string": { namespace_prefix: "lg" },
          "query as number": { query: 5 },
          "filter as array": { filter: [1] },
          "refresh_ttl as string": { refresh_ttl: "yes" },
        },
        withJson: (value) => ({ filter: { a: { $eq: value } } }),
        withText: (text) => ({ query: text }),
      },
    },
    {
      name: "POST /api/langgraph/store/namespaces",
      method: "POST",
      path: "/api/langgraph/store/namespaces",
      handler: lgNamespaces.POST,
      access: "caller",
      keyHeader: "x-api-key",
      body: {
        valid: () => ({ prefix: ["lg"], limit: 5 }),
        wrongTypes: {
          "max_depth as string": { max_depth: "2" },
          "max_depth zero": { max_depth: 0 },
          "limit as string": { limit: "5" },
          "offset as float": { offset: 0.5 },
          "prefix as string": { prefix: "lg" },
          "suffix of numbers": { suffix: [1] },
        },
        withJson: (value) => ({ prefix: [value] }),
        withText: (text) => ({ prefix: [text] }),
      },
    },
    {
      name: "POST /api/mcp",
      method: "POST",
      path: "/api/mcp",
      handler: mcp.POST,
      access: "caller",
      headers: mcpHeaders,
      refusesInBand: true,
      body: {
        valid: () => mcpCall({ content: "hostile" }),
        wrongTypes: {
          "jsonrpc as number": { ...mcpCall({ content: "x" }), jsonrpc: 2 },
          "method as number": { ...mcpCall({ content: "x" }), method: 1 },
          "params as array": { ...mcpCall({ content: "x" }), params: [1] },
          "arguments as string": mcpCall("content"),
          "content as number": mcpCall({ content: 42 }),
          "namespace as string": mcpCall({ content: "x", namespace: "a" }),
          "unknown tool": { ...mcpCall({}), params: { name: "drop_tables", arguments: {} } },
          "batch of nulls": [null, null],
        },
        withJson: (value) => mcpCall({ content: { note: value } }),
        withText: (text) => mcpCall({ content: text }),
      },
    },
    {
      name: "GET /api/mcp",
      method: "GET",
      path: "/api/mcp",
      handler: mcp.GET,
      access: "caller",
      headers: { accept: "text/event-stream" },
    },
    {
      name: "DELETE /api/mcp",
      method: "DELETE",
      path: "/api/mcp",
      handler: mcp.DELETE,
      access: "caller",
      headers: mcpHeaders,
    },
    {
      name: "POST /api/chat",
      method: "POST",
      path: "/api/chat",
      handler: chat.POST,
      access: "caller",
      body: {
        valid: () => chatBody("hello"),
        wrongTypes: {
          "text as number": chatBody(42),
          "parts as object": { ...chatBody("x"), message: { id: "m", role: "user", parts: { type: "text" } } },
          "role as assistant": { ...chatBody("x"), message: { id: "m", role: "assistant", parts: [] } },
          "trigger unknown": { ...chatBody("x"), trigger: "drop" },
          "id with SQL": { ...chatBody("x"), id: SQL_INJECTION },
          "id as number": { ...chatBody("x"), id: 5 },
          "model not configured": { ...chatBody("x"), model: "openai:gpt-nothing" },
          "message as null": { ...chatBody("x"), message: null },
        },
        withJson: (value) => ({ ...chatBody("x"), message: { ...chatBody("x").message, metadata: value } }),
        withText: (text) => chatBody(text),
      },
    },
    { name: "GET /api/health", method: "GET", path: "/api/health", handler: health.GET, access: "public" },
    // An admin's session or the metrics token (not an API key); the fixture's session is no admin's.
    { name: "GET /api/metrics", method: "GET", path: "/api/metrics", handler: metricsRoute.GET, access: "session" },
    {
      name: "GET /memories/export",
      method: "GET",
      path: "/memories/export",
      handler: exportRoute.GET,
      access: "session",
    },
  ];
}

/** Each route file, with the methods it exports: Next answers 405 for every other method. */
const ROUTE_METHODS: Record<string, string[]> = {
  "(auth)/api/auth/[...nextauth]": ["GET", "POST"],
  "(auth)/api/auth/guest": ["GET"],
  "(chat)/api/chat": ["POST"],
  "(console)/memories/export": ["GET"],
  "api/health": ["GET"],
  "api/metrics": ["GET"],
  "api/langgraph/store/items": ["DELETE", "GET", "PUT"],
  "api/langgraph/store/items/search": ["POST"],
  "api/langgraph/store/namespaces": ["POST"],
  "api/mcp": ["DELETE", "GET", "POST"],
  "api/v1/extraction-runs/[id]/revert": ["POST"],
  "api/v1/messages/[id]/revert": ["POST"],
  "api/v1/consolidation-runs": ["GET", "POST"],
  "api/v1/consolidation-runs/[id]": ["GET"],
  "api/v1/consolidation-runs/[id]/revert": ["POST"],
  "api/v1/memory-health": ["GET"],
  "api/v1/keys": ["GET", "POST"],
  "api/v1/keys/[id]": ["DELETE"],
  "api/v1/me": ["GET"],
  "api/v1/account": ["DELETE"],
  "api/v1/sessions/revoke": ["POST"],
  "api/v1/memories": ["GET", "POST"],
  "api/v1/memories/[id]": ["DELETE", "GET", "PATCH"],
  "api/v1/memories/[id]/history": ["GET"],
  "api/v1/memories/[id]/restore": ["POST"],
  "api/v1/memories/batch": ["POST"],
  "api/v1/memories/search": ["POST"],
  "api/v1/openapi.json": ["GET"],
  "api/v1/threads/[id]/extraction": ["GET", "POST"],
  "api/v1/usage": ["GET"],
  "api/v1/webhooks": ["GET", "POST"],
  "api/v1/webhooks/[id]": ["DELETE", "GET", "PATCH"],
  "api/v1/webhooks/[id]/deliveries": ["GET"],
  "api/v1/webhooks/[id]/deliveries/[deliveryId]/redeliver": ["POST"],
  "api/v1/proposals": ["GET"],
  "api/v1/proposals/[id]/approve": ["POST"],
  "api/v1/proposals/[id]/reject": ["POST"],
  "api/v1/rules": ["GET", "POST"],
  "api/v1/rules/[id]": ["DELETE"],
  "api/v1/settings": ["GET", "PATCH"],
  "api/v1/feedback": ["POST"],
  "api/v1/instructions": ["GET", "PUT"],
};

const APP = path.resolve(import.meta.dirname, "../../app");

function routeFiles(directory = APP): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [path.relative(APP, directory).split(path.sep).join("/")] : [];
  });
}

describe("the hostile-input table covers every route", () => {
  it("lists every route.ts under app/ with exactly the methods it exports", () => {
    const modules: Record<string, object> = {
      "(auth)/api/auth/[...nextauth]": nextauth,
      "(auth)/api/auth/guest": guest,
      "(chat)/api/chat": chat,
      "(console)/memories/export": exportRoute,
      "api/health": health,
      "api/metrics": metricsRoute,
      "api/langgraph/store/items": lgItems,
      "api/langgraph/store/items/search": lgSearch,
      "api/langgraph/store/namespaces": lgNamespaces,
      "api/mcp": mcp,
      "api/v1/extraction-runs/[id]/revert": revertRun,
      "api/v1/messages/[id]/revert": revertTurn,
      "api/v1/consolidation-runs": consolidationRuns,
      "api/v1/consolidation-runs/[id]": consolidationRun,
      "api/v1/consolidation-runs/[id]/revert": revertConsolidation,
      "api/v1/memory-health": memoryHealth,
      "api/v1/keys": keys,
      "api/v1/keys/[id]": key,
      "api/v1/me": me,
      "api/v1/account": account,
      "api/v1/sessions/revoke": revokeSessions,
      "api/v1/memories": memories,
      "api/v1/memories/[id]": memory,
      "api/v1/memories/[id]/history": history,
      "api/v1/memories/[id]/restore": restore,
      "api/v1/memories/batch": batch,
      "api/v1/memories/search": search,
      "api/v1/openapi.json": openapi,
      "api/v1/threads/[id]/extraction": extraction,
      "api/v1/usage": usage,
      "api/v1/webhooks": webhooks,
      "api/v1/webhooks/[id]": webhook,
      "api/v1/webhooks/[id]/deliveries": webhookDeliveries,
      "api/v1/webhooks/[id]/deliveries/[deliveryId]/redeliver": webhookRedeliver,
      "api/v1/proposals": proposals,
      "api/v1/proposals/[id]/approve": approve,
      "api/v1/proposals/[id]/reject": reject,
      "api/v1/rules": rules,
      "api/v1/rules/[id]": rule,
      "api/v1/settings": settings,
      "api/v1/feedback": feedback,
      "api/v1/instructions": instructions,
    };
    expect(routeFiles().sort()).toEqual(Object.keys(ROUTE_METHODS).sort());
    for (const [route, methods] of Object.entries(ROUTE_METHODS)) {
      const exported = Object.keys(modules[route] ?? {}).filter((name) =>
        ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].includes(name),
      );
      expect(exported.sort(), route).toEqual(methods);
    }
  });
});

interface Attack {
  name: string;
  call: Call;
}

/** Request bodies no endpoint may accept. */
function bodyAttacks(endpoint: Endpoint, spec: BodySpec): Attack[] {
  const json = (body: BodyInit, headers: Record<string, string> = {}): Call => ({
    method: endpoint.method,
    path: endpoint.path,
    params: endpoint.params,
    headers: { ...endpoint.headers, "content-type": JSON_TYPE, ...headers },
    body,
  });
  const valid = JSON.stringify(spec.valid());
  const big = (size: number) => JSON.stringify(spec.withText("a".repeat(size)));
  const attacks: Attack[] = [
    ...["", " ", '{"a":', "{'a': 1}", '{"a":1}}', '{"a":1,}', "NaN", "undefined", "\u0000", "{}garbage"].map(
      (text) => ({ name: `malformed JSON ${JSON.stringify(text)}`, call: json(text) }),
    ),
    ...["[]", "42", "null", '"text"', "true", "[{}]", "-0", "1e999"].map((text) => ({
      name: `JSON root ${text} instead of an object`,
      call: json(text),
    })),
    ...Object.entries(spec.wrongTypes).map(([name, body]) => ({
      name: `wrong type: ${name}`,
      call: json(JSON.stringify(body)),
    })),
    { name: "body of 1.1 MB", call: json(big(1.1 * MB)) },
    { name: "body of 5 MB", call: json(big(5 * MB)) },
    { name: "body of 5 MB with its Content-Length", call: json(big(5 * MB), { "content-length": String(5 * MB) }) },
    { name: "Content-Length of 10 MB on a small body", call: json(valid, { "content-length": String(10 * MB) }) },
    { name: "Content-Length smaller than a 1.1 MB body", call: json(big(1.1 * MB), { "content-length": "10" }) },
    { name: "Content-Length not a number", call: json(big(1.1 * MB), { "content-length": "abc" }) },
    { name: "10,000 nested arrays", call: json(nestedArrays(10_000)) },
    { name: "10,000 nested objects", call: json(nestedObjects(10_000)) },
    {
      name: "10,000 nested arrays inside a field",
      call: json(jsonWith(spec.withJson("<deep>"), "<deep>", nestedArrays(10_000))),
    },
    {
      name: "1,000 nested objects inside a field",
      call: json(jsonWith(spec.withJson("<deep>"), "<deep>", nestedObjects(1_000))),
    },
    ...(
      [
        ["byte 0xFF", [0xff]],
        ["bytes 0xFE 0xFF", [0xfe, 0xff]],
        ["overlong '/' (0xC0 0xAF)", [0xc0, 0xaf]],
        ["UTF-8-encoded surrogate (0xED 0xA0 0x80)", [0xed, 0xa0, 0x80]],
        ["truncated sequence (0xE2 0x82)", [0xe2, 0x82]],
        ["code point above U+10FFFF (0xF4 0x90 0x80 0x80)", [0xf4, 0x90, 0x80, 0x80]],
      ] as const
    ).map(([name, raw]) => {
      const [before, after] = JSON.stringify(spec.withText("<bytes>")).split("<bytes>");
      return { name: `invalid UTF-8 in a string: ${name}`, call: json(bytes(before ?? "", [...raw], after ?? "")) };
    }),
    { name: "a UTF-16 body", call: json(new Uint8Array(Buffer.from(valid, "utf16le"))) },
    { name: "lone surrogate escape in a string", call: json(jsonWith(spec.withText("<s>"), "<s>", '"a\\ud800b"')) },
    { name: "lone surrogate escape in arbitrary JSON", call: json(jsonWith(spec.withJson("<s>"), "<s>", '"\\udfff"')) },
    {
      name: "lone surrogate escape in an object key",
      call: json(jsonWith(spec.withJson("<s>"), "<s>", '{"\\ud800":1}')),
    },
    { name: "NUL in a string", call: json(JSON.stringify(spec.withText("a\u0000b"))) },
    { name: "NUL in arbitrary JSON", call: json(JSON.stringify(spec.withJson("\u0000"))) },
  ];
  const typed = (name: string, contentType: string | null, body: BodyInit = bytes(valid)): Attack => ({
    name,
    call: {
      method: endpoint.method,
      path: endpoint.path,
      params: endpoint.params,
      headers: { ...endpoint.headers, ...(contentType === null ? {} : { "content-type": contentType }) },
      body,
    },
  });
  attacks.push(
    typed("no Content-Type", null),
    typed("Content-Type text/plain", "text/plain"),
    typed("Content-Type form-urlencoded", "application/x-www-form-urlencoded"),
    typed("Content-Type multipart/form-data", "multipart/form-data; boundary=x"),
    typed("Content-Type application/jsonp", "application/jsonp"),
    typed("Content-Type JSON in Latin-1", "application/json; charset=iso-8859-1"),
    typed("Content-Type of 10 KB", `text/${"a".repeat(10_000)}; charset=utf-8`),
  );
  return attacks;
}

/** Credentials that must be refused: no key, broken keys, keys in the wrong header, spoofed proxy headers. */
function credentialAttacks(endpoint: Endpoint): Attack[] {
  const base = (extra: HeadersInit, signedIn = false): Call => {
    const headers = new Headers(extra);
    for (const [name, value] of Object.entries(endpoint.headers ?? {})) headers.set(name, value);
    if (endpoint.body) headers.set("content-type", JSON_TYPE);
    return {
      method: endpoint.method,
      path: endpoint.path,
      query: endpoint.query,
      params: endpoint.params,
      headers,
      signedIn,
      body: endpoint.body ? JSON.stringify(endpoint.body.valid()) : undefined,
    };
  };
  const keyHeader = endpoint.keyHeader ?? "authorization";
  const asKey = (value: string) => (keyHeader === "authorization" ? `Bearer ${value}` : value);
  const duplicate = new Headers();
  duplicate.append(keyHeader, asKey(fixture.apiKey));
  duplicate.append(keyHeader, asKey(fixture.apiKey));
  return [
    { name: "no session and no key", call: base({}) },
    { name: `${keyHeader} empty`, call: base({ [keyHeader]: "" }) },
    { name: "Authorization: Bearer with nothing after it", call: base({ authorization: "Bearer" }) },
    { name: "Authorization: Bearer with garbage", call: base({ authorization: "Bearer !!garbage!!" }) },
    { name: "Authorization: Basic", call: base({ authorization: "Basic dXNlcjpwYXNz" }) },
    { name: "Authorization with SQL", call: base({ authorization: `Bearer ml_${SQL_INJECTION}` }) },
    { name: `duplicate ${keyHeader} with a valid key twice`, call: base(duplicate) },
    { name: `${keyHeader} of 100 KB`, call: base({ [keyHeader]: asKey(`ml_${"A".repeat(100_000)}`) }) },
    {
      name: `${keyHeader} with UTF-8 bytes`,
      call: base({ [keyHeader]: asKey(asHeaderBytes(`ml_ключ${"é".repeat(36)}`)) }),
    },
    { name: "x-api-key with UTF-8 bytes", call: base({ "x-api-key": asHeaderBytes("ключ-🔑") }) },
    { name: "the valid key's prefix only", call: base({ [keyHeader]: asKey(fixture.apiKey.slice(0, 12)) }) },
    {
      name: "the valid key with one character changed",
      call: base({ [keyHeader]: asKey(`${fixture.apiKey.slice(0, -1)}x`) }),
    },
    ...(endpoint.access === "caller"
      ? [{ name: "a broken key alongside a valid session", call: base({ [keyHeader]: asKey("ml_broken") }, true) }]
      : []),
    {
      name: "spoofed X-Forwarded-* and X-Real-IP",
      call: base({
        "x-forwarded-for": "127.0.0.1, 10.0.0.1",
        "x-forwarded-host": "localhost",
        "x-forwarded-proto": "https",
        "x-real-ip": "127.0.0.1",
        forwarded: "for=127.0.0.1;host=localhost",
      }),
    },
    { name: "a 100 KB header", call: base({ "x-padding": "p".repeat(100_000) }) },
    { name: "a garbage session cookie", call: base({ cookie: `authjs.session-token=${"x".repeat(5_000)}` }) },
  ];
}

function idAttacks(endpoint: Endpoint): Attack[] {
  return HOSTILE_IDS.map((id) => ({
    name: `id ${JSON.stringify(id.length > 40 ? `${id.slice(0, 10)}… (${id.length} chars)` : id)}`,
    call: {
      method: endpoint.method,
      path: endpoint.path.replace(
        String(endpoint.params?.[endpoint.idParam ?? ""]),
        encodeURIComponent(id.replace(/\p{Surrogate}/gu, "\uFFFD")),
      ),
      params: { [endpoint.idParam ?? "id"]: id },
      headers: endpoint.body ? [["content-type", JSON_TYPE]] : [],
      body: endpoint.body ? JSON.stringify(endpoint.body.valid()) : undefined,
    },
  }));
}

/**
 * Query strings for the routes that read one. `refused`: a 4xx; `harmless`: any non-5xx, nothing written; `literal`:
 * harmless, and metacharacters match only themselves, so nothing in the fixture matches.
 */
const QUERY_ATTACKS: Record<string, Array<[string, "refused" | "harmless" | "literal"]>> = {
  "GET /api/v1/memories": [
    [`?q=${encodeURIComponent(SQL_INJECTION)}`, "harmless"],
    ["?q=%25", "literal"],
    ["?q=_", "literal"],
    ["?q=%5C", "literal"],
    ["?q=%FF%FE", "harmless"],
    ["?q=%00", "harmless"],
    ["?q=%ED%A0%80", "harmless"],
    [`?q=${"a".repeat(3_000)}`, "refused"],
    [`?namespace=${encodeURIComponent(SQL_INJECTION)}`, "harmless"],
    ["?namespace=%25", "literal"],
    ["?namespace=_", "literal"],
    ["?namespace=..", "refused"],
    ["?namespace=a..b", "refused"],
    ["?kind=%25", "literal"],
    ["?kind=%00", "harmless"],
    ["?limit=abc", "refused"],
    ["?limit=-1", "refused"],
    ["?limit=1e999", "refused"],
    ["?limit=10.5", "refused"],
    ["?limit=1%27%20or%201=1", "refused"],
    ["?status=all%27--", "refused"],
    ["?cursor=garbage", "refused"],
    [
      `?cursor=${Buffer.from(JSON.stringify({ at: SQL_INJECTION, id: SQL_INJECTION })).toString("base64url")}`,
      "refused",
    ],
    [`?cursor=${Buffer.from('{"at":"2026-01-01T00:00:00Z","id":"x"}').toString("base64url")}`, "refused"],
    ["?q=a&cursor=x", "refused"],
    ["?admin=true", "refused"],
    ["?q=a&q=b&q=c", "harmless"],
  ],
  "GET /api/langgraph/store/items": [
    [`?namespace=${encodeURIComponent(SQL_INJECTION)}&key=k`, "harmless"],
    ["?namespace=%25&key=%25", "literal"],
    ["?namespace=_&key=_", "literal"],
    ["?namespace=fixture-lg&key=%25", "literal"],
    ["?namespace=fixture%25&key=fixture", "literal"],
    ["?namespace=%FF&key=%00", "harmless"],
    ["?namespace=a..b&key=k", "refused"],
    ["?namespace=lg", "refused"],
    ["?namespace=lg&key=", "refused"],
    [`?namespace=lg&key=${"k".repeat(300)}`, "refused"],
  ],
  "DELETE /api/v1/memories/{id}": [
    ["?purge=yes", "refused"],
    ["?purge=true%27", "refused"],
    ["?purge=1", "refused"],
  ],
  "GET /api/v1/memories/{id}": [["?expand=all", "refused"]],
  "GET /api/v1/usage": [
    [`?from=${encodeURIComponent(SQL_INJECTION)}`, "refused"],
    ["?from=2026-01-01%27--", "refused"],
    ["?to=%00", "refused"],
    ["?from=2026-02-30", "refused"],
    ["?from=2026-03-01&to=2026-01-01", "refused"],
    ["?from=0001-01-01&to=9999-12-31", "refused"],
    ["?userId=someone", "refused"],
    ["?from=2026-01-01&from=2026-01-02", "harmless"],
  ],
  "POST /api/v1/memories/{id}/restore": [["?force=true", "refused"]],
  "GET /api/v1/proposals": [
    ["?status=pending%27--", "refused"],
    ["?status=all", "refused"],
    ["?cursor=garbage", "refused"],
    ["?limit=0", "refused"],
    ["?userId=someone", "refused"],
    [`?threadId=${encodeURIComponent(SQL_INJECTION)}`, "harmless"],
  ],
};

/** Runs every case even after one fails, then fails listing each case that did. */
async function allCases<T>(cases: T[], label: (one: T) => string, run: (one: T) => Promise<void>) {
  const failures: string[] = [];
  for (const one of cases) {
    counted.cases += 1;
    try {
      await run(one);
    } catch (error) {
      failures.push(`${label(one)}: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  expect(failures).toEqual([]);
}

/** What every table holds, as a fingerprint per table: a refused request must leave each one as it was. */
async function snapshot(): Promise<string> {
  if (!routeHarness.database) throw new Error("no test database");
  const prints = await tableFingerprints(routeHarness.database);
  return [...prints].map(([table, print]) => `${table}: ${print}`).join("\n");
}

/**
 * The snapshot the last check found unchanged. Nothing runs between one hostile request's check and the next request,
 * so it is the next one's "before": one fingerprint per request instead of two. A write a request leaves for later
 * still shows, in the next check.
 */
let lastUnchanged: string | undefined;

async function snapshotBefore(): Promise<string> {
  const before = lastUnchanged ?? (await snapshot());
  lastUnchanged = undefined;
  return before;
}

async function expectUnchanged(before: string, label?: string) {
  const after = await snapshot();
  expect(after, label === undefined ? undefined : `${label}: rows changed`).toBe(before);
  lastUnchanged = after;
}

/** Sends the attack and checks the response and that no row changed. */
async function expectRefusedWithoutWrites(endpoint: Endpoint, attack: Attack) {
  const before = await snapshotBefore();
  const outcome = await send(endpoint.handler, attack.call);
  const label = `${endpoint.name} × ${attack.name}`;
  if (endpoint.refusesItemsInBand && outcome.status === 201) {
    const body = outcome.json as { created: unknown[]; rejected: Array<{ error: { message: string } }> };
    expect(body.created, label).toEqual([]);
    expect(body.rejected.length, label).toBeGreaterThan(0);
    expect(
      body.rejected.every((entry) => entry.error.message),
      label,
    ).toBe(true);
  } else if (endpoint.refusesInBand && outcome.status === 200) {
    const body = outcome.json as { error?: { message?: string }; result?: { isError?: boolean } } | undefined;
    expect(body?.error?.message ?? (body?.result?.isError ? "tool error" : undefined), label).toBeTruthy();
    // A tool error is read by a model: it says what was wrong with the input, never how the database was queried.
    expect(outcome.text, label).not.toMatch(/insert into|select |Failed query/i);
  } else {
    expectJsonRefusal(outcome, label);
  }
  await expectUnchanged(before, label);
}

describeEachDatabase("hostile input", (use) => {
  beforeAll(async () => {
    const database = use();
    routeHarness.database = database;
    const owner = await registerUser(database.unbound.db, {
      name: "owner",
      email: OWNER_EMAIL,
      password: OWNER_PASSWORD,
    });
    fixture.userId = owner.id;
    fixture.principal = {
      userId: owner.id,
      role: "user",
      root: ["users", owner.id],
      isGuest: false,
      email: OWNER_EMAIL,
      name: "owner",
    };
    routeHarness.principal = fixture.principal;
    const created = await send(memories.POST, {
      method: "POST",
      path: "/api/v1/memories",
      headers: { "content-type": JSON_TYPE },
      body: JSON.stringify({ content: "fixture memory about tea", namespace: ["fixture"] }),
    });
    expect(created.status).toBe(201);
    fixture.memoryId = (created.json as { memory: { id: string } }).memory.id;
    const item = await send(lgItems.PUT, {
      method: "PUT",
      path: "/api/langgraph/store/items",
      headers: { "content-type": JSON_TYPE },
      body: JSON.stringify({ namespace: ["fixture-lg"], key: "fixture", value: { drink: "tea" } }),
    });
    expect(item.status).toBe(204);
    fixture.apiKey = (
      await createApiKey(bindingFor(database, owner.id), { name: "fixture", scopes: ["read", "write"] })
    ).key;
  });

  beforeEach(() => {
    lastUnchanged = undefined;
    routeHarness.database = use();
    routeHarness.principal = fixture.principal;
    routeHarness.cookies = new CookieJar();
    routeHarness.requestHeaders = new Headers({ host: "localhost", "x-forwarded-proto": "http" });
  });

  // Paths, params and keys come from the fixture, made in beforeAll: the tests are laid out from the endpoints' shape
  // now and build their requests when they run.
  const families: Array<[string, (endpoint: Endpoint) => boolean, (endpoint: Endpoint) => Attack[]]> = [
    ["body", (endpoint) => endpoint.body !== undefined, (endpoint) => bodyAttacks(endpoint, endpoint.body!)],
    ["credentials", (endpoint) => endpoint.access !== "public", credentialAttacks],
    ["ids", (endpoint) => endpoint.idParam !== undefined, idAttacks],
  ];
  for (const [family, applies, attacksFor] of families) {
    describe(`${family} attacks`, () => {
      for (const { name } of endpoints().filter(applies)) {
        it(name, async () => {
          const endpoint = endpoints().find((candidate) => candidate.name === name);
          if (!endpoint) throw new Error(`no endpoint ${name}`);
          await allCases(
            attacksFor(endpoint),
            (attack) => attack.name,
            (attack) => expectRefusedWithoutWrites(endpoint, attack),
          );
        });
      }
    });
  }

  it("a stateless MCP server answers GET and DELETE with 405, even when signed in", async () => {
    for (const method of ["GET", "DELETE"]) {
      const before = await snapshotBefore();
      const handler = method === "GET" ? mcp.GET : mcp.DELETE;
      const outcome = await send(handler, { method, path: "/api/mcp", headers: { accept: "text/event-stream" } });
      expectJsonRefusal(outcome, method);
      expect(outcome.status).toBe(405);
      expect(outcome.headers.get("allow")).toBe("POST");
      await expectUnchanged(before);
    }
  });

  it.each(Object.keys(QUERY_ATTACKS))("query attacks: %s", async (name) => {
    const endpoint = endpoints().find((candidate) => candidate.name === name);
    if (!endpoint) throw new Error(`no endpoint ${name}`);
    await allCases(
      QUERY_ATTACKS[name] ?? [],
      ([query]) => query.slice(0, 80),
      async ([query, expected]) => {
        const attack: Attack = {
          name: `query ${query.slice(0, 80)}`,
          call: { method: endpoint.method, path: endpoint.path, query, params: endpoint.params },
        };
        if (expected === "refused") {
          await expectRefusedWithoutWrites(endpoint, attack);
          return;
        }
        const before = await snapshotBefore();
        const outcome = await send(endpoint.handler, attack.call);
        expectNoServerError(outcome, `${name} × ${attack.name}`);
        if (outcome.status >= 400) expectJsonRefusal(outcome, `${name} × ${attack.name}`);
        await expectUnchanged(before, `${name} × ${attack.name}`);
        if (expected === "literal") {
          expect(outcome.status, attack.name).toBe(200);
          const found =
            name === "GET /api/v1/memories" ? (outcome.json as { memories: unknown[] }).memories : outcome.json;
          expect(found, attack.name).toEqual(name === "GET /api/v1/memories" ? [] : null);
        }
      },
    );
  });

  it("public endpoints answer spoofed and oversized headers without a server error", async () => {
    const tricks: Record<string, string>[] = [
      { "x-forwarded-host": "evil.example", "x-forwarded-proto": "gopher", "x-forwarded-for": "::1" },
      { "x-padding": "p".repeat(100_000) },
      { cookie: `authjs.session-token=${"%FF".repeat(1_000)}` },
    ];
    const publicEndpoints = endpoints().filter((candidate) => candidate.access === "public");
    const cases = publicEndpoints.flatMap((endpoint) => tricks.map((headers) => ({ endpoint, headers })));
    await allCases(
      cases,
      ({ endpoint, headers }) => `${endpoint.name} ${Object.keys(headers)}`,
      async ({ endpoint, headers }) => {
        const before = await snapshotBefore();
        const outcome = await send(endpoint.handler, {
          method: endpoint.method,
          path: endpoint.path,
          headers,
          signedIn: false,
        });
        expect(outcome.status, endpoint.name).toBe(200);
        expect(outcome.json, endpoint.name).toBeDefined();
        await expectUnchanged(before);
      },
    );
  });

  it("SQL metacharacters in names and keys are stored and matched literally", async () => {
    counted.cases += 1;
    const odd = ["%", "_", "\\", SQL_INJECTION];
    const put = await send(lgItems.PUT, {
      method: "PUT",
      path: "/api/langgraph/store/items",
      headers: { "content-type": JSON_TYPE },
      body: JSON.stringify({ namespace: odd, key: SQL_INJECTION, value: { note: "%_\\" } }),
    });
    expect(put.status).toBe(204);
    const got = await send(lgItems.GET, {
      method: "GET",
      path: "/api/langgraph/store/items",
      query: `?namespace=${encodeURIComponent(odd.join("."))}&key=${encodeURIComponent(SQL_INJECTION)}`,
    });
    expect(got.json).toMatchObject({ namespace: odd, key: SQL_INJECTION, value: { note: "%_\\" } });
    for (const prefix of [["%"], ["_"], ["\\"], ["%", "%"]]) {
      const found = await send(lgSearch.POST, {
        method: "POST",
        path: "/api/langgraph/store/items/search",
        headers: { "content-type": JSON_TYPE },
        body: JSON.stringify({ namespace_prefix: prefix, limit: 100 }),
      });
      const namespaces = (found.json as { items: { namespace: string[] }[] }).items.map((item) => item.namespace);
      expect(namespaces, JSON.stringify(prefix)).toEqual(prefix[0] === "%" && prefix.length === 1 ? [odd] : []);
      const listed = await send(lgNamespaces.POST, {
        method: "POST",
        path: "/api/langgraph/store/namespaces",
        headers: { "content-type": JSON_TYPE },
        body: JSON.stringify({ prefix }),
      });
      expect((listed.json as { namespaces: string[][] }).namespaces, JSON.stringify(prefix)).toEqual(
        prefix[0] === "%" && prefix.length === 1 ? [odd] : [],
      );
    }
    const listed = await send(memories.GET, {
      method: "GET",
      path: "/api/v1/memories",
      query: `?namespace=${encodeURIComponent("%")}`,
    });
    expect((listed.json as { memories: { namespace: string[] }[] }).memories.map((m) => m.namespace)).toEqual([odd]);
    const deleted = await send(lgItems.DELETE, {
      method: "DELETE",
      path: "/api/langgraph/store/items",
      headers: { "content-type": JSON_TYPE },
      body: JSON.stringify({ namespace: odd, key: SQL_INJECTION }),
    });
    expect(deleted.status).toBe(204);
    const tables = await use().unbound.rows<{ n: number }>(sql`select count(*)::int as n from memories`);
    expect(tables[0]?.n).toBeGreaterThan(0);
  });

  describe("Auth.js routes", () => {
    const authUrl = (action: string) => `${ORIGIN}/api/auth/${action}`;
    const baseHeaders = { host: "localhost", "x-forwarded-proto": "http" };

    async function csrf(): Promise<{ token: string; cookie: string }> {
      const response = await nextauth.GET(
        new (await import("next/server")).NextRequest(authUrl("csrf"), { headers: baseHeaders }),
      );
      const { csrfToken } = (await response.json()) as { csrfToken: string };
      return { token: csrfToken, cookie: cookiesFrom(response) };
    }

    async function post(action: string, body: BodyInit, headers: Record<string, string>) {
      const { NextRequest } = await import("next/server");
      return outcomeOf(
        await nextauth.POST(
          new NextRequest(authUrl(action), { method: "POST", headers: { ...baseHeaders, ...headers }, body }),
        ),
      );
    }

    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const FORM = "application/x-www-form-urlencoded";

    /** Auth.js refuses a sign-in by redirecting to the sign-in page with an error; we refuse bodies with a 4xx. */
    function expectAuthRefusal(outcome: Outcome, label: string) {
      if (outcome.status >= 300 && outcome.status < 400) {
        expectLocalRedirect(outcome, ORIGIN, label);
        expect(outcome.headers.get("location"), label).toMatch(/[?&]error=/);
        expect(
          outcome.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token=")),
          label,
        ).toBe(false);
      } else {
        expectJsonRefusal(outcome, label);
      }
    }

    it("a valid credentials sign-in works through the same harness", async () => {
      const { token, cookie } = await csrf();
      const outcome = await post(
        "callback/credentials",
        form({ csrfToken: token, email: OWNER_EMAIL, password: OWNER_PASSWORD }),
        {
          "content-type": FORM,
          cookie,
        },
      );
      expect(outcome.status).toBe(302);
      expect(outcome.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))).toBe(true);
    });

    it("credentials callback refuses hostile bodies without writing", async () => {
      const { token, cookie } = await csrf();
      const withCsrf = (fields: Record<string, string>) => form({ csrfToken: token, ...fields });
      const cases: Array<[string, BodyInit, Record<string, string>]> = [
        ["no CSRF token", form({ email: OWNER_EMAIL, password: OWNER_PASSWORD }), { "content-type": FORM, cookie }],
        [
          "a wrong CSRF token",
          form({ csrfToken: "x", email: OWNER_EMAIL, password: "x" }),
          { "content-type": FORM, cookie },
        ],
        [
          "SQL in the email",
          withCsrf({ email: `${SQL_INJECTION}@example.com`, password: "x" }),
          { "content-type": FORM, cookie },
        ],
        ["% as the email", withCsrf({ email: "%", password: "%" }), { "content-type": FORM, cookie }],
        [
          "_ wildcard email",
          withCsrf({ email: "_wner@example.com", password: OWNER_PASSWORD }),
          { "content-type": FORM, cookie },
        ],
        ["backslash email", withCsrf({ email: "\\@example.com", password: "x" }), { "content-type": FORM, cookie }],
        [
          "a 60 KB email",
          withCsrf({ email: `${"a".repeat(60_000)}@example.com`, password: "x" }),
          { "content-type": FORM, cookie },
        ],
        [
          "a 10 KB password",
          withCsrf({ email: OWNER_EMAIL, password: "p".repeat(10_000) }),
          { "content-type": FORM, cookie },
        ],
        [
          "a NUL in the email",
          withCsrf({ email: "owner\u0000@example.com", password: "x" }),
          { "content-type": FORM, cookie },
        ],
        [
          "the wrong password",
          withCsrf({ email: OWNER_EMAIL, password: "wrong password" }),
          { "content-type": FORM, cookie },
        ],
        [
          "invalid UTF-8 bytes",
          bytes(`csrfToken=${token}&email=`, [0xff, 0xfe], "&password=x"),
          { "content-type": FORM, cookie },
        ],
        [
          "a 1.1 MB form",
          withCsrf({ email: OWNER_EMAIL, password: "p".repeat(1.1 * MB) }),
          { "content-type": FORM, cookie },
        ],
        [
          "a 5 MB form",
          withCsrf({ email: OWNER_EMAIL, password: "p".repeat(5 * MB) }),
          { "content-type": FORM, cookie },
        ],
        ["malformed JSON", '{"csrfToken":', { "content-type": JSON_TYPE, cookie }],
        ["JSON array", "[]", { "content-type": JSON_TYPE, cookie }],
        [
          "JSON email as a number",
          JSON.stringify({ csrfToken: token, email: 5, password: 5 }),
          { "content-type": JSON_TYPE, cookie },
        ],
        [
          "JSON email as an array",
          JSON.stringify({ csrfToken: token, email: [OWNER_EMAIL], password: [OWNER_PASSWORD] }),
          { "content-type": JSON_TYPE, cookie },
        ],
        ["10,000 nested arrays", nestedArrays(10_000), { "content-type": JSON_TYPE, cookie }],
        [
          "lone surrogate escape",
          `{"csrfToken":"${token}","email":"\\ud800@example.com","password":"x"}`,
          { "content-type": JSON_TYPE, cookie },
        ],
        ["no Content-Type", bytes(withCsrf({ email: OWNER_EMAIL, password: OWNER_PASSWORD })), { cookie }],
        [
          "text/plain",
          withCsrf({ email: OWNER_EMAIL, password: OWNER_PASSWORD }),
          { "content-type": "text/plain", cookie },
        ],
        [
          "a garbage session cookie",
          withCsrf({ email: "x", password: "x" }),
          { "content-type": FORM, cookie: `${cookie}; authjs.session-token=garbage` },
        ],
      ];
      await allCases(
        cases,
        ([name]) => name,
        async ([name, body, headers]) => {
          const before = await snapshotBefore();
          expectAuthRefusal(await post("callback/credentials", body, headers), name);
          await expectUnchanged(before, name);
        },
      );
    });

    it("the guest callback and the other POST actions create nothing for hostile requests", async () => {
      const { token, cookie } = await csrf();
      const cases: Array<[string, string, BodyInit, Record<string, string>]> = [
        ["callback/guest", "no CSRF token", form({}), { "content-type": FORM }],
        [
          "callback/guest",
          "a wrong CSRF cookie",
          form({ csrfToken: token }),
          { "content-type": FORM, cookie: "authjs.csrf-token=x" },
        ],
        [
          "callback/guest",
          "a 5 MB body",
          form({ csrfToken: token, pad: "p".repeat(5 * MB) }),
          { "content-type": FORM, cookie },
        ],
        ["callback/guest", "malformed JSON", "{", { "content-type": JSON_TYPE, cookie }],
        [
          "callback/unknown-provider",
          "an unknown provider",
          form({ csrfToken: token }),
          { "content-type": FORM, cookie },
        ],
        ["callback/%FF", "an undecodable provider", form({ csrfToken: token }), { "content-type": FORM, cookie }],
        ["not-an-action", "an unknown action", form({ csrfToken: token }), { "content-type": FORM, cookie }],
        ["session", "a session update with garbage", '{"data":', { "content-type": JSON_TYPE, cookie }],
        [
          "session",
          "a session update without CSRF",
          JSON.stringify({ data: { uid: "someone" } }),
          { "content-type": JSON_TYPE },
        ],
        ["signout", "a sign-out with invalid UTF-8", bytes("csrfToken=", [0xff]), { "content-type": FORM, cookie }],
        [
          "signin/credentials",
          "a sign-in POST with 10,000 nested arrays",
          nestedArrays(10_000),
          { "content-type": JSON_TYPE, cookie },
        ],
      ];
      await allCases(
        cases,
        ([action, name]) => `${action}: ${name}`,
        async ([action, name, body, headers]) => {
          const before = await snapshotBefore();
          const outcome = await post(action, body, headers);
          const label = `${action}: ${name}`;
          if (outcome.status >= 300 && outcome.status < 400) expectLocalRedirect(outcome, ORIGIN, label);
          else expectJsonRefusal(outcome, label);
          await expectUnchanged(before, label);
        },
      );
    });

    it("GET actions answer hostile queries and cookies without a server error or a write", async () => {
      const { NextRequest } = await import("next/server");
      const cases: Array<[string, Record<string, string>]> = [
        ["session", { cookie: "authjs.session-token=garbage" }],
        ["session", { cookie: `authjs.session-token=${"A".repeat(8_000)}` }],
        ["session", { cookie: "authjs.session-token=%FF%FE" }],
        ["csrf", { cookie: "authjs.csrf-token=%00" }],
        ["providers", { "x-forwarded-host": "evil.example" }],
        [`signin?callbackUrl=${encodeURIComponent("https://evil.example")}`, {}],
        ["callback/credentials?email=x&password=y", {}],
        [`error?error=${encodeURIComponent("<script>")}`, {}],
        ["unknown-action", {}],
        ["%FF", {}],
      ];
      await allCases(
        cases,
        ([action]) => action,
        async ([action, headers]) => {
          const before = await snapshotBefore();
          const outcome = await outcomeOf(
            await nextauth.GET(new NextRequest(authUrl(action), { headers: { ...baseHeaders, ...headers } })),
          );
          expectNoServerError(outcome, action);
          if (outcome.status >= 300 && outcome.status < 400) expectLocalRedirect(outcome, ORIGIN, action);
          if (outcome.status >= 400) expectJsonRefusal(outcome, action);
          await expectUnchanged(before, action);
        },
      );
    });

    it("the guest route sends every hostile redirect target back to this site", async () => {
      const targets = [
        "//evil.example",
        "https://evil.example/",
        "/\\evil.example",
        "\\\\evil.example",
        "/.//evil.example",
        "/..//evil.example",
        "/%2e//evil.example",
        "/./\\evil.example",
        "%2f%2fevil.example",
        "javascript:alert(1)",
        "%FF",
        "/%0d%0aSet-Cookie:x=y",
        SQL_INJECTION,
        "/".repeat(5_000),
        `/${"a".repeat(100_000)}`,
      ];
      const tricks: Record<string, string>[] = [{}, { "x-forwarded-host": "evil.example" }];
      const cases = targets.flatMap((target) => tricks.map((headers) => ({ target, headers })));
      await allCases(
        cases,
        ({ target, headers }) => `${target.slice(0, 40)} ${JSON.stringify(headers)}`,
        async ({ target, headers }) => {
          routeHarness.cookies = new CookieJar();
          routeHarness.requestHeaders = new Headers({ ...baseHeaders, ...headers });
          const { NextRequest } = await import("next/server");
          const request = new NextRequest(`${ORIGIN}/api/auth/guest?redirectUrl=${encodeURIComponent(target)}`, {
            headers: { ...baseHeaders, ...headers },
          });
          const outcome = await outcomeOf(await settle(() => guest.GET(request)));
          expectLocalRedirect(outcome, ORIGIN, "guest");
        },
      );
      routeHarness.cookies = new CookieJar();
      routeHarness.requestHeaders = new Headers(baseHeaders);
      const { NextRequest } = await import("next/server");
      const normal = new NextRequest(`${ORIGIN}/api/auth/guest?redirectUrl=${encodeURIComponent("/memories?x=1")}`, {
        headers: baseHeaders,
      });
      const outcome = await outcomeOf(await settle(() => guest.GET(normal)));
      expect(new URL(outcome.headers.get("location") ?? "", ORIGIN).href).toBe(`${ORIGIN}/memories?x=1`);
    });

    it("the sign-in and register actions refuse hostile form data without writing", async () => {
      const file = new File(["x"], "x.txt");
      const forms: Array<[string, Record<string, string | File | string[]>]> = [
        ["nothing", {}],
        ["files instead of text", { email: file, password: file, name: file }],
        ["SQL in the email", { email: `${SQL_INJECTION}@example.com`, password: "password123" }],
        ["wildcards in the email", { email: "%@%", password: "password123" }],
        ["a NUL in the name", { name: "a\u0000b", email: "nul@example.com", password: "password123" }],
        ["a tab in the name", { name: "a\tb", email: "tab@example.com", password: "password123" }],
        ["a lone surrogate in the email", { email: "a\ud800@example.com", password: "password123" }],
        ["a NUL in the password", { email: "pw@example.com", password: "password\u0000" }],
        ["a 1 MB name", { name: "n".repeat(MB), email: "big@example.com", password: "password123" }],
        ["a 1 MB password", { email: "bigpw@example.com", password: "p".repeat(MB) }],
        ["the taken email in capitals", { email: OWNER_EMAIL.toUpperCase(), password: "password123" }],
        ["repeated fields", { email: [OWNER_EMAIL, "second@example.com"], password: ["password123", OWNER_PASSWORD] }],
      ];
      const cases = forms.flatMap(([name, fields]) =>
        (["login", "register"] as const).map((action) => ({ name, fields, action })),
      );
      await allCases(
        cases,
        ({ action, name }) => `${action}: ${name}`,
        async ({ name, fields, action }) => {
          const data = new FormData();
          for (const [field, value] of Object.entries(fields)) {
            for (const one of Array.isArray(value) ? value : [value]) data.append(field, one);
          }
          routeHarness.cookies = new CookieJar();
          const before = await snapshotBefore();
          const label = `${action}: ${name}`;
          const result = await authActions[action]({}, data);
          expect(result.error ?? Object.values(result.fieldErrors ?? {})[0], label).toBeTruthy();
          await expectUnchanged(before, label);
        },
      );
    });
  });
});
