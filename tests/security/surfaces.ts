import { Client as StoreClient } from "@langchain/langgraph-sdk";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as chatActions from "@/app/(chat)/actions";
import * as chatRoute from "@/app/(chat)/api/chat/route";
import ThreadPage from "@/app/(chat)/chat/[id]/page";
import ChatLayout from "@/app/(chat)/layout";
import MemoryPage from "@/app/(console)/memories/[id]/page";
import AccessLogPage from "@/app/(console)/memories/access-log/page";
import * as memoryActions from "@/app/(console)/memories/actions";
import AdminPage from "@/app/(console)/memories/admin/page";
import * as exportRoute from "@/app/(console)/memories/export/route";
import InstructionsPage from "@/app/(console)/memories/instructions/page";
import MemoriesPage from "@/app/(console)/memories/page";
import * as reviewActions from "@/app/(console)/memories/review/actions";
import ReviewPage from "@/app/(console)/memories/review/page";
import RulesPage from "@/app/(console)/memories/rules/page";
import * as runActions from "@/app/(console)/memories/runs/actions";
import RunsPage from "@/app/(console)/memories/runs/page";
import SystemPage from "@/app/(console)/memories/system/page";
import TransferPage from "@/app/(console)/memories/transfer/page";
import UsagePage from "@/app/(console)/memories/usage/page";
import * as keyActions from "@/app/(console)/settings/keys/actions";
import ApiKeysPage from "@/app/(console)/settings/keys/page";
import SettingsPage from "@/app/(console)/settings/page";
import * as webhookActions from "@/app/(console)/settings/webhooks/actions";
import WebhooksPage from "@/app/(console)/settings/webhooks/page";
import * as storeItems from "@/app/api/langgraph/store/items/route";
import * as storeSearch from "@/app/api/langgraph/store/items/search/route";
import * as storeNamespaces from "@/app/api/langgraph/store/namespaces/route";
import * as mcpRoute from "@/app/api/mcp/route";
import * as feedbackRoute from "@/app/api/v1/feedback/route";
import * as instructionsRoute from "@/app/api/v1/instructions/route";
import * as keyItem from "@/app/api/v1/keys/[id]/route";
import * as keyCollection from "@/app/api/v1/keys/route";
import * as me from "@/app/api/v1/me/route";
import * as history from "@/app/api/v1/memories/[id]/history/route";
import * as restore from "@/app/api/v1/memories/[id]/restore/route";
import * as memoryItem from "@/app/api/v1/memories/[id]/route";
import * as memoryCollection from "@/app/api/v1/memories/route";
import * as search from "@/app/api/v1/memories/search/route";
import * as approve from "@/app/api/v1/proposals/[id]/approve/route";
import * as reject from "@/app/api/v1/proposals/[id]/reject/route";
import * as proposals from "@/app/api/v1/proposals/route";
import * as ruleItem from "@/app/api/v1/rules/[id]/route";
import * as ruleCollection from "@/app/api/v1/rules/route";
import * as settings from "@/app/api/v1/settings/route";
import * as extraction from "@/app/api/v1/threads/[id]/extraction/route";
import * as usage from "@/app/api/v1/usage/route";
import * as webhookRedeliver from "@/app/api/v1/webhooks/[id]/deliveries/[deliveryId]/redeliver/route";
import * as webhookDeliveries from "@/app/api/v1/webhooks/[id]/deliveries/route";
import * as webhookItem from "@/app/api/v1/webhooks/[id]/route";
import * as webhookCollection from "@/app/api/v1/webhooks/route";
import { createMemoryTools, type MemoryToolsOptions } from "@/lib/chat/memory-tools";
import { loadSourceMessage } from "@/lib/console/source";
import { listMemoryUses } from "@/lib/console/usage";
import type { MemoryContext } from "@/lib/memory/core";
import { routeFetch } from "../api-keys/dispatch";
import { bindingFor } from "../memory/support";
import { harness, testDatabase } from "./harness";

/**
 * How each surface is driven in the isolation suite, always through its real handler: route handlers with Request
 * objects, the LangGraph SDK and the MCP client over an in-process fetch, server actions, page components and their
 * data loaders, and the chat tools. Who calls is set in `harness` (session principal, API key) before each call.
 */

/** What a surface answered: an HTTP status (pages: 200 rendered, 404 notFound) or null for actions and tools. */
export interface Outcome {
  status: number | null;
  body: unknown;
}

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

export interface HttpCall<P> {
  method?: string;
  path: string;
  body?: unknown;
  params?: P;
  /** The LangGraph API reads the key from `x-api-key`; REST, MCP and chat from `Authorization: Bearer`. */
  keyHeader?: "authorization" | "x-api-key";
}

function keyHeaders(keyHeader: "authorization" | "x-api-key" = "authorization"): Record<string, string> {
  const key = harness.apiKey;
  if (!key) return {};
  return keyHeader === "authorization" ? { authorization: `Bearer ${key}` } : { "x-api-key": key };
}

/** Calls a route handler and reads the whole response (JSON when it parses, else text); awaits its `after()` work. */
export async function http<P>(handler: Handler<P>, call: HttpCall<P>): Promise<Outcome> {
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  const request = new Request(`http://memory.test${call.path}`, {
    method: call.method ?? "GET",
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...keyHeaders(call.keyHeader),
    },
    body,
  });
  const response = await handler(request, { params: Promise.resolve(call.params ?? ({} as P)) });
  const text = await response.text();
  await Promise.all(harness.pending.splice(0));
  return { status: response.status, body: parseText(text) };
}

function parseText(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A page or server component: rendered (its element tree, with the data it passes down) or a 404. */
export async function page(render: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { status: 200, body: await render() };
  } catch (error) {
    const digest = (error as { digest?: unknown }).digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_HTTP_ERROR_FALLBACK;404"))
      return { status: 404, body: null };
    throw error;
  }
}

/** A server action, loader or tool: its result, or the message it failed with. */
export async function result(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { status: null, body: await run() };
  } catch (error) {
    return { status: null, body: { thrown: error instanceof Error ? error.message : String(error) } };
  }
}

/** The body as text for leak checks; React elements keep their props (the data a page hands to components). */
export function textOf(body: unknown): string {
  if (typeof body === "string") return body;
  const seen = new WeakSet<object>();
  return (
    JSON.stringify(body, (_key, value: unknown) => {
      if (typeof value === "function" || typeof value === "symbol") return undefined;
      if (typeof value === "bigint") return String(value);
      if (value && typeof value === "object") {
        if (seen.has(value)) return undefined;
        seen.add(value);
      }
      return value;
    }) ?? ""
  );
}

/* ---------- REST v1 ---------- */

export const rest = {
  list: (query: string) => http(memoryCollection.GET, { path: `/api/v1/memories${query}` }),
  create: (body: unknown) => http(memoryCollection.POST, { method: "POST", path: "/api/v1/memories", body }),
  get: (id: string, query = "") =>
    http(memoryItem.GET, { path: `/api/v1/memories/${encodeURIComponent(id)}${query}`, params: { id } }),
  patch: (id: string, body: unknown) =>
    http(memoryItem.PATCH, {
      method: "PATCH",
      path: `/api/v1/memories/${encodeURIComponent(id)}`,
      params: { id },
      body,
    }),
  delete: (id: string, query = "") =>
    http(memoryItem.DELETE, {
      method: "DELETE",
      path: `/api/v1/memories/${encodeURIComponent(id)}${query}`,
      params: { id },
    }),
  restore: (id: string) =>
    http(restore.POST, { method: "POST", path: `/api/v1/memories/${encodeURIComponent(id)}/restore`, params: { id } }),
  history: (id: string) =>
    http(history.GET, { path: `/api/v1/memories/${encodeURIComponent(id)}/history`, params: { id } }),
  search: (body: unknown) => http(search.POST, { method: "POST", path: "/api/v1/memories/search", body }),
  extraction: (id: string) =>
    http(extraction.GET, { path: `/api/v1/threads/${encodeURIComponent(id)}/extraction`, params: { id } }),
  extract: (id: string) =>
    http(extraction.POST, {
      method: "POST",
      path: `/api/v1/threads/${encodeURIComponent(id)}/extraction`,
      params: { id },
    }),
  keys: () => http(keyCollection.GET, { path: "/api/v1/keys" }),
  createKey: (body: unknown) => http(keyCollection.POST, { method: "POST", path: "/api/v1/keys", body }),
  revokeKey: (id: string) =>
    http(keyItem.DELETE, { method: "DELETE", path: `/api/v1/keys/${encodeURIComponent(id)}`, params: { id } }),
  me: () => http(me.GET, { path: "/api/v1/me" }),
  usage: (query = "") => http(usage.GET, { path: `/api/v1/usage${query}` }),
  webhooks: () => http(webhookCollection.GET, { path: "/api/v1/webhooks" }),
  createWebhook: (body: unknown) => http(webhookCollection.POST, { method: "POST", path: "/api/v1/webhooks", body }),
  webhook: (id: string) =>
    http(webhookItem.GET, { path: `/api/v1/webhooks/${encodeURIComponent(id)}`, params: { id } }),
  patchWebhook: (id: string, body: unknown) =>
    http(webhookItem.PATCH, {
      method: "PATCH",
      path: `/api/v1/webhooks/${encodeURIComponent(id)}`,
      params: { id },
      body,
    }),
  deleteWebhook: (id: string) =>
    http(webhookItem.DELETE, { method: "DELETE", path: `/api/v1/webhooks/${encodeURIComponent(id)}`, params: { id } }),
  webhookDeliveries: (id: string) =>
    http(webhookDeliveries.GET, { path: `/api/v1/webhooks/${encodeURIComponent(id)}/deliveries`, params: { id } }),
  redeliver: (id: string, deliveryId: string) =>
    http(webhookRedeliver.POST, {
      method: "POST",
      path: `/api/v1/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
      params: { id, deliveryId },
    }),
  proposals: (query = "") => http(proposals.GET, { path: `/api/v1/proposals${query}` }),
  approve: (id: string, body?: unknown) =>
    http(approve.POST, {
      method: "POST",
      path: `/api/v1/proposals/${encodeURIComponent(id)}/approve`,
      params: { id },
      body,
    }),
  reject: (id: string, body?: unknown) =>
    http(reject.POST, {
      method: "POST",
      path: `/api/v1/proposals/${encodeURIComponent(id)}/reject`,
      params: { id },
      body,
    }),
  rules: () => http(ruleCollection.GET, { path: "/api/v1/rules" }),
  createRule: (body: unknown) => http(ruleCollection.POST, { method: "POST", path: "/api/v1/rules", body }),
  deleteRule: (id: string) =>
    http(ruleItem.DELETE, { method: "DELETE", path: `/api/v1/rules/${encodeURIComponent(id)}`, params: { id } }),
  settings: () => http(settings.GET, { path: "/api/v1/settings" }),
  patchSettings: (body: unknown) => http(settings.PATCH, { method: "PATCH", path: "/api/v1/settings", body }),
  feedback: (body: unknown) => http(feedbackRoute.POST, { method: "POST", path: "/api/v1/feedback", body }),
  instructions: () => http(instructionsRoute.GET, { path: "/api/v1/instructions" }),
  putInstructions: (body: unknown) =>
    http(instructionsRoute.PUT, { method: "PUT", path: "/api/v1/instructions", body }),
};

/* ---------- LangGraph Store API ---------- */

const lg = { keyHeader: "x-api-key" } as const;
const storeRoutes = {
  "/api/langgraph/store/items": { GET: storeItems.GET, PUT: storeItems.PUT, DELETE: storeItems.DELETE },
  "/api/langgraph/store/items/search": { POST: storeSearch.POST },
  "/api/langgraph/store/namespaces": { POST: storeNamespaces.POST },
};

/** Raw requests, for namespaces and keys the SDK would refuse to send. */
export const store = {
  put: (namespace: unknown, key: string, value: unknown) =>
    http(storeItems.PUT, { ...lg, method: "PUT", path: "/api/langgraph/store/items", body: { namespace, key, value } }),
  get: (dottedNamespace: string, key: string) =>
    http(storeItems.GET, {
      ...lg,
      path: `/api/langgraph/store/items?${new URLSearchParams({ namespace: dottedNamespace, key })}`,
    }),
  getRaw: (query: string) => http(storeItems.GET, { ...lg, path: `/api/langgraph/store/items?${query}` }),
  delete: (namespace: unknown, key: string) =>
    http(storeItems.DELETE, { ...lg, method: "DELETE", path: "/api/langgraph/store/items", body: { namespace, key } }),
  search: (body: unknown) =>
    http(storeSearch.POST, { ...lg, method: "POST", path: "/api/langgraph/store/items/search", body }),
  namespaces: (body: unknown) =>
    http(storeNamespaces.POST, { ...lg, method: "POST", path: "/api/langgraph/store/namespaces", body }),
};

/** The real `@langchain/langgraph-sdk` client, with the row's key (or none, for a session). */
export async function sdk(use: (client: StoreClient) => Promise<unknown>): Promise<Outcome> {
  const client = new StoreClient({
    apiUrl: "http://memory.test/api/langgraph",
    apiKey: harness.apiKey ?? undefined,
    callerOptions: { fetch: routeFetch(storeRoutes), maxRetries: 0 },
  });
  try {
    return { status: 200, body: (await use(client)) ?? null };
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (typeof status !== "number") throw error;
    return { status, body: error instanceof Error ? error.message : String(error) };
  }
}

/* ---------- MCP ---------- */

const mcpFetch = routeFetch({ "/api/mcp": { POST: mcpRoute.POST, GET: mcpRoute.GET, DELETE: mcpRoute.DELETE } });

/** A connected MCP client sending `apiKey` as Bearer, or no credentials (the session decides). */
export async function connectMcp(apiKey: string | null): Promise<McpClient> {
  const client = new McpClient({ name: "isolation-suite", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("http://memory.test/api/mcp"), {
    fetch: mcpFetch,
    requestInit: apiKey ? { headers: { authorization: `Bearer ${apiKey}` } } : {},
  });
  await client.connect(transport);
  return client;
}

/** Calls an MCP tool with the client of the row's credentials: `{ isError, text }`, or what the protocol threw. */
export async function mcp(name: string, args: Record<string, unknown>): Promise<Outcome> {
  const client = harness.auth === "key" ? harness.mcp.key : harness.mcp.session;
  if (!client) throw new Error("MCP clients are not connected");
  return result(async () => {
    const called = await client.callTool({ name, arguments: args });
    const [first] = called.content as Array<{ type: string; text?: string }>;
    return { isError: called.isError === true, text: first?.text ?? "" };
  });
}

/* ---------- chat ---------- */

export function chat(body: unknown): Promise<Outcome> {
  return http(chatRoute.POST, { method: "POST", path: "/api/chat", body });
}

export const say = (threadId: string, messageId: string, text: string) => ({
  id: threadId,
  trigger: "submit-message",
  message: { id: messageId, role: "user", parts: [{ type: "text", text }] },
});

export const chatThreads = {
  rename: (id: string, title: string) => result(() => chatActions.renameThreadAction({ id, title })),
  delete: (id: string) => result(() => chatActions.deleteThreadAction(id)),
  load: (cursor: string) => result(() => chatActions.loadThreadsAction(cursor)),
};

/** The chat's memory tools over the given context, as the chat route builds them. */
/** Builds the chat's memory tools over `ctx` (wiring errors are results too) and runs one of them. */
export function tool(
  ctx: MemoryContext,
  name: "manage_memory" | "search_memory",
  input: Record<string, unknown>,
  options: MemoryToolsOptions = {},
): Promise<Outcome> {
  return result(async () => {
    const execute = createMemoryTools(ctx, options)[name].execute as (input: unknown, call: unknown) => unknown;
    return await execute(input, { toolCallId: "isolation", messages: [] });
  });
}

/* ---------- console ---------- */

const searchParams = (values: Record<string, string>) => Promise.resolve(values);

export const consolePages = {
  memories: (values: Record<string, string> = {}) => page(() => MemoriesPage({ searchParams: searchParams(values) })),
  memory: (id: string, values: Record<string, string> = {}) =>
    page(() => MemoryPage({ params: Promise.resolve({ id }), searchParams: searchParams(values) })),
  runs: (values: Record<string, string> = {}) => page(() => RunsPage({ searchParams: searchParams(values) })),
  accessLog: (values: Record<string, string> = {}) => page(() => AccessLogPage({ searchParams: searchParams(values) })),
  usage: () => page(() => UsagePage()),
  admin: (values: Record<string, string> = {}) => page(() => AdminPage({ searchParams: searchParams(values) })),
  transfer: () => page(() => TransferPage()),
  system: () => page(() => SystemPage()),
  keys: () => page(() => ApiKeysPage()),
  webhooks: () => page(() => WebhooksPage()),
  review: (values: Record<string, string> = {}) => page(() => ReviewPage({ searchParams: searchParams(values) })),
  rules: (values: Record<string, string> = {}) => page(() => RulesPage({ searchParams: searchParams(values) })),
  instructions: (values: Record<string, string> = {}) =>
    page(() => InstructionsPage({ searchParams: searchParams(values) })),
  settings: () => page(() => SettingsPage()),
  thread: (id: string) => page(() => ThreadPage({ params: Promise.resolve({ id }) })),
  /** The chat layout, which reads the sidebar's threads and hands them to it. */
  sidebar: () => page(() => ChatLayout({ children: null })),
};

export const consoleLoaders = {
  memoryUses: (userId: string, memoryId: string) =>
    result(() => listMemoryUses(bindingFor(testDatabase(), userId), memoryId)),
  sourceMessage: (userId: string, source: { threadId?: string; messageId?: string }) =>
    result(() => loadSourceMessage(bindingFor(testDatabase(), userId), source)),
};

export const consoleActions = {
  edit: (input: unknown) => result(() => memoryActions.editMemoryAction(input)),
  status: (input: unknown) => result(() => memoryActions.changeStatusAction(input)),
  revert: (input: unknown) => result(() => memoryActions.revertMemoryAction(input)),
  bulk: (input: unknown) => result(() => memoryActions.bulkStatusAction(input)),
  import: (input: unknown) => result(() => memoryActions.importAction(input)),
  retryRun: (runId: string) => result(() => runActions.retryRunAction(runId)),
  revokeKey: (id: string) => result(() => keyActions.revokeKeyAction(id)),
  deleteWebhook: (id: string) => result(() => webhookActions.deleteWebhookAction(id)),
  enableWebhook: (id: string) => result(() => webhookActions.setWebhookEnabledAction({ id, enabled: true })),
  redeliver: (id: string, deliveryId: string) =>
    result(() => webhookActions.redeliverAction({ webhookId: id, deliveryId })),
  decideProposal: (input: unknown) => result(() => reviewActions.decideProposalAction(input)),
  decideProposals: (input: unknown) => result(() => reviewActions.decideProposalsAction(input)),
  removeRule: (id: string) => result(() => reviewActions.removeRuleAction(id)),
  createKey: (fields: Record<string, string | string[]>) =>
    result(() => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) {
        for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
      }
      return keyActions.createKeyAction(null, form);
    }),
  export: () => http(() => exportRoute.GET(), { path: "/memories/export" }),
};
