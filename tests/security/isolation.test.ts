import "../support/route-mocks";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { encodeCursor } from "@/lib/db/keyset";
import { type ExtractionOp, runExtraction } from "@/lib/memory/extraction";
import { createMemory } from "@/lib/memory/store";
import { addExchange, scriptedManager } from "../extraction/support";
import { contextFor } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { setEnv } from "../support/env";
import {
  A_KEYS,
  A_MEMORIES,
  A_MEMORY_IDS_ANY_FORM,
  A_MEMORY_UUIDS,
  A_PROPOSALS,
  A_RULES,
  A_RUNS,
  A_THREADS,
  A_THREADS_NOT_IDS,
  A_WEBHOOKS,
  type Aim,
  DOTTED_NAMESPACES,
  ITEM_KEYS,
  NAMESPACES,
  type Target,
  UNKNOWN_THREAD,
  UNKNOWN_UUID,
} from "./attacks";
import { A_ID, A_PLAIN_ACTIVE, A_PLAIN_DELETED, B_ID, type Fixture, SHARED_MEMORY, seedFixture } from "./fixture";
import { type Auth, harness, principalFor, testDatabase } from "./harness";
import { allRows, changedRows, type RowChange, type RowSnapshot, snapshotRows } from "./owned-rows";
import {
  chat,
  chatThreads,
  connectMcp,
  consoleActions,
  consoleLoaders,
  consolePages,
  mcp,
  type Outcome,
  rest,
  result,
  say,
  sdk,
  store,
  textOf,
  tool,
} from "./surfaces";

/**
 * Cross-user isolation, one row per surface × attack × way of signing in. User A owns memories, chats, extraction
 * runs and API keys; user B, signed in (session) or holding only an API key (key), aims at A's ids and at namespaces
 * that resemble A's. Every row asserts, besides its own expectation:
 *   - none of A's rows changed, and whatever changed is B's (B's memories under B's root);
 *   - the answer contains none of A's data (CANARY, A's ids and keys) that B did not send itself;
 *   - a refusal writes nothing beyond the key's use stamp and queues nothing;
 *   - aimed at one of A's things, it answers exactly as for an unknown one (no hint that A's exists).
 * Rows run in order against one database: those that let B create things named like A's (a chat under A's thread
 * id, extraction proposals naming A's ids) come last, so earlier rows still meet A's ids where B has nothing.
 */

type Expectation =
  /** An HTTP or page refusal with this status. */
  | { refused: number }
  /** An action's or tool's refusal: its result matches this. */
  | { refusedWith: unknown }
  /** Allowed, on B's own data only: this HTTP status, or null for actions and tools (which must not fail). */
  | { own: number | null };

const refused = (status: number): Expectation => ({ refused: status });
const refusedWith = (match: unknown): Expectation => ({ refusedWith: match });
const own = (status: number | null = null): Expectation => ({ own: status });

/** Sends the attack; `target` is A's thing (or its unknown twin) for aimed rows, "" otherwise. */
type Send = (target: string, f: Fixture) => Promise<Outcome>;

interface Row {
  surface: Surface;
  attack: string;
  auth: Auth;
  expect: Expectation;
  send: Send;
  target?: Target;
  /** Further checks on an allowed answer. */
  check?: (body: unknown, f: Fixture) => void;
}

const SURFACES = [
  "REST GET /api/v1/memories",
  "REST POST /api/v1/memories",
  "REST GET /api/v1/memories/:id",
  "REST PATCH /api/v1/memories/:id",
  "REST DELETE /api/v1/memories/:id",
  "REST DELETE /api/v1/memories/:id?purge=true",
  "REST POST /api/v1/memories/:id/restore",
  "REST GET /api/v1/memories/:id/history",
  "REST POST /api/v1/memories/search",
  "REST GET /api/v1/threads/:id/extraction",
  "REST POST /api/v1/threads/:id/extraction",
  "REST GET /api/v1/keys",
  "REST POST /api/v1/keys",
  "REST DELETE /api/v1/keys/:id",
  "REST GET /api/v1/me",
  "REST GET /api/v1/usage",
  "REST GET /api/v1/proposals",
  "REST POST /api/v1/proposals/:id/approve",
  "REST POST /api/v1/proposals/:id/reject",
  "REST GET /api/v1/rules",
  "REST POST /api/v1/rules",
  "REST DELETE /api/v1/rules/:id",
  "REST GET /api/v1/settings",
  "REST PATCH /api/v1/settings",
  "REST POST /api/v1/feedback",
  "REST GET /api/v1/instructions",
  "REST PUT /api/v1/instructions",
  "LangGraph PUT /store/items",
  "LangGraph GET /store/items",
  "LangGraph DELETE /store/items",
  "LangGraph POST /store/items/search",
  "LangGraph POST /store/namespaces",
  "LangGraph SDK client",
  "MCP add_memory",
  "MCP search_memories",
  "MCP get_memory",
  "MCP update_memory",
  "MCP delete_memory",
  "MCP list_memories",
  "MCP manage_memory",
  "MCP search_memory",
  "chat POST /api/chat",
  "chat tool manage_memory",
  "chat tool search_memory",
  "chat action renameThread",
  "chat action deleteThread",
  "chat action loadThreads",
  "chat page /chat/[id]",
  "chat sidebar",
  "extraction worker runExtraction",
  "console page /memories",
  "console page /memories/[id]",
  "console page /memories/runs",
  "console page /memories/review",
  "console page /memories/rules",
  "console page /memories/instructions",
  "settings page /settings",
  "console action decideProposal",
  "console action decideProposals",
  "console action removeRule",
  "console page /memories/access-log",
  "console page /memories/usage",
  "console page /memories/admin",
  "console page /memories/system",
  "console page /memories/transfer",
  "console loader listMemoryUses",
  "console loader loadSourceMessage",
  "console action editMemory",
  "console action changeStatus",
  "console action revertMemory",
  "console action bulkStatus",
  "console action import",
  "console action retryRun",
  "console GET /memories/export",
  "settings page /settings/keys",
  "settings action createKey",
  "settings action revokeKey",
  "REST GET /api/v1/webhooks",
  "REST POST /api/v1/webhooks",
  "REST GET /api/v1/webhooks/:id",
  "REST PATCH /api/v1/webhooks/:id",
  "REST DELETE /api/v1/webhooks/:id",
  "REST GET /api/v1/webhooks/:id/deliveries",
  "REST POST /api/v1/webhooks/:id/deliveries/:deliveryId/redeliver",
  "settings page /settings/webhooks",
  "settings action deleteWebhook",
  "settings action enableWebhook",
  "settings action redeliver",
] as const;
type Surface = (typeof SURFACES)[number];

const BOTH: Auth[] = ["session", "key"];
const SESSION: Auth[] = ["session"];
const KEY: Auth[] = ["key"];

const table: Row[] = [];

function add(
  surface: Surface,
  auths: Auth[],
  attack: string,
  expectation: Expectation,
  send: Send,
  extra: Partial<Row> = {},
) {
  for (const auth of auths) table.push({ surface, attack, auth, expect: expectation, send, ...extra });
}

/** Surfaces that take one of A's things: each is tried against every aim. */
interface Aimed {
  surface: Surface;
  /** Words before the attack's name, when one surface appears with several requests. */
  verb?: string;
  auths: Auth[];
  expect: Expectation;
  send: Send;
}

function aimAt(aims: Aim[], surfaces: Aimed[]) {
  for (const { surface, verb, auths, expect: expectation, send } of surfaces) {
    for (const { attack, target } of aims) {
      add(surface, auths, verb ? `${verb} ${attack}` : attack, expectation, send, { target });
    }
  }
}

/** Surfaces that take a namespace: each is tried with every namespace attack. */
interface AlongNamespaces<N> {
  surface: Surface;
  verb: string;
  auths: Auth[];
  valid: Expectation;
  invalid: Expectation;
  send: (namespace: N, f: Fixture) => Promise<Outcome>;
  check?: Row["check"];
}

function alongNamespaces(surfaces: AlongNamespaces<string[]>[]) {
  for (const { surface, verb, auths, valid, invalid, send, check } of surfaces) {
    for (const attack of NAMESPACES) {
      const expectation = attack.valid ? valid : invalid;
      add(surface, auths, `${verb} ${attack.attack}`, expectation, (_t, f) => send(attack.namespace, f), { check });
    }
  }
}

function alongDottedNamespaces(surfaces: AlongNamespaces<string>[]) {
  for (const { surface, verb, auths, valid, invalid, send } of surfaces) {
    for (const attack of DOTTED_NAMESPACES) {
      add(surface, auths, `${verb} ${attack.attack}`, attack.valid ? valid : invalid, (_t, f) =>
        send(attack.dotted, f),
      );
    }
  }
}

let written = 0;
/** A fresh key per write, so B's own writes never collide with each other. */
const freshKey = () => `k${++written}`;
const FAR_FUTURE = new Date("2999-01-01T00:00:00.000Z");
/** A cursor as the app makes them, naming a row the attacker does not own. */
const forged = (order: string, id: string) => encodeCursor({ name: order, direction: "desc" }, { at: FAR_FUTURE, id });
const agentOfB = () => contextFor(testDatabase(), B_ID, { actor: { type: "agent", id: "offline" } });
/** B's own memory with the words A's chat and A's run log also hold: purging it erases copies, B's only. */
const sharedMemoryOfB = () => createMemory(contextFor(testDatabase(), B_ID), { content: SHARED_MEMORY });
const manage = (input: Record<string, unknown>) => (id: string) => tool(agentOfB(), "manage_memory", { ...input, id });
const setStatus = (op: "delete" | "restore" | "purge") => (id: string) =>
  consoleActions.status({ id, op, confirm: op });
const bulk = (op: "delete" | "restore") => (id: string) => consoleActions.bulk({ ids: [id], op });

/* ---------- A's ids ---------- */

aimAt(A_MEMORY_IDS_ANY_FORM, [
  { surface: "REST GET /api/v1/memories/:id", auths: BOTH, expect: refused(404), send: (id) => rest.get(id) },
  {
    surface: "REST PATCH /api/v1/memories/:id",
    auths: BOTH,
    expect: refused(404),
    send: (id) => rest.patch(id, { content: "x" }),
  },
  { surface: "REST DELETE /api/v1/memories/:id", auths: BOTH, expect: refused(404), send: (id) => rest.delete(id) },
  {
    surface: "REST DELETE /api/v1/memories/:id?purge=true",
    auths: BOTH,
    expect: refused(404),
    send: (id) => rest.delete(id, "?purge=true"),
  },
  {
    surface: "REST POST /api/v1/memories/:id/restore",
    auths: BOTH,
    expect: refused(404),
    send: (id) => rest.restore(id),
  },
  {
    surface: "REST GET /api/v1/memories/:id/history",
    auths: BOTH,
    expect: refused(404),
    send: (id) => rest.history(id),
  },
]);
aimAt(A_MEMORIES.slice(0, 1), [
  {
    surface: "REST PATCH /api/v1/memories/:id",
    verb: "with A's version,",
    auths: BOTH,
    expect: refused(404),
    send: (id) => rest.patch(id, { content: "x", expectedVersion: 1 }),
  },
  {
    surface: "REST PATCH /api/v1/memories/:id",
    verb: "with a stale version (no 409),",
    auths: BOTH,
    expect: refused(404),
    send: (id) => rest.patch(id, { content: "x", expectedVersion: 99 }),
  },
  {
    surface: "REST PATCH /api/v1/memories/:id",
    verb: "metadata only,",
    auths: BOTH,
    expect: refused(404),
    send: (id) => rest.patch(id, { metadata: { owner: "B" } }),
  },
  {
    surface: "REST GET /api/v1/memories/:id",
    verb: "with a query string,",
    auths: BOTH,
    expect: refused(422),
    send: (id) => rest.get(id, "?as=x"),
  },
  {
    surface: "MCP update_memory",
    verb: "with A's version,",
    auths: BOTH,
    expect: refusedWith({ isError: true }),
    send: (id) => mcp("update_memory", { id, content: "x", expectedVersion: 1 }),
  },
]);

const MCP_ERROR = refusedWith({ isError: true });
const NO_MEMORY = refusedWith({ thrown: expect.stringMatching(/^No memory with id/) });
const NOT_FOUND = refusedWith({ ok: false, error: expect.objectContaining({ code: "not_found" }) });
const NOTHING_CHANGED = refusedWith({ ok: true, changed: 0, skipped: 1 });
aimAt(A_MEMORY_UUIDS, [
  { surface: "MCP get_memory", auths: BOTH, expect: MCP_ERROR, send: (id) => mcp("get_memory", { id }) },
  {
    surface: "MCP update_memory",
    auths: BOTH,
    expect: MCP_ERROR,
    send: (id) => mcp("update_memory", { id, content: "x" }),
  },
  {
    surface: "MCP delete_memory",
    auths: BOTH,
    expect: MCP_ERROR,
    send: (id) => mcp("delete_memory", { id, reason: "x" }),
  },
  {
    surface: "MCP manage_memory",
    verb: "update",
    auths: BOTH,
    expect: MCP_ERROR,
    send: (id) => mcp("manage_memory", { action: "update", id, content: "x" }),
  },
  {
    surface: "MCP manage_memory",
    verb: "delete",
    auths: BOTH,
    expect: MCP_ERROR,
    send: (id) => mcp("manage_memory", { action: "delete", id }),
  },
  {
    surface: "chat tool manage_memory",
    verb: "update",
    auths: SESSION,
    expect: NO_MEMORY,
    send: manage({ action: "update", content: "x" }),
  },
  {
    surface: "chat tool manage_memory",
    verb: "delete",
    auths: SESSION,
    expect: NO_MEMORY,
    send: manage({ action: "delete" }),
  },
  {
    surface: "console page /memories/[id]",
    auths: SESSION,
    expect: refused(404),
    send: (id) => consolePages.memory(id),
  },
  {
    surface: "console action editMemory",
    auths: SESSION,
    expect: NOT_FOUND,
    send: (id) => consoleActions.edit({ id, expectedVersion: 1, content: { content: "x" } }),
  },
  {
    surface: "console action changeStatus",
    verb: "delete",
    auths: SESSION,
    expect: NOT_FOUND,
    send: setStatus("delete"),
  },
  {
    surface: "console action changeStatus",
    verb: "restore",
    auths: SESSION,
    expect: NOT_FOUND,
    send: setStatus("restore"),
  },
  {
    surface: "console action changeStatus",
    verb: "purge",
    auths: SESSION,
    expect: NOT_FOUND,
    send: setStatus("purge"),
  },
  {
    surface: "console action revertMemory",
    auths: SESSION,
    expect: NOT_FOUND,
    send: (id) => consoleActions.revert({ id, version: 1, expectedVersion: 2 }),
  },
  {
    surface: "console action bulkStatus",
    verb: "delete",
    auths: SESSION,
    expect: NOTHING_CHANGED,
    send: bulk("delete"),
  },
  {
    surface: "console action bulkStatus",
    verb: "restore",
    auths: SESSION,
    expect: NOTHING_CHANGED,
    send: bulk("restore"),
  },
  {
    surface: "console loader listMemoryUses",
    verb: "B's uses of",
    auths: SESSION,
    expect: own(),
    send: (id, f) => consoleLoaders.memoryUses(f.b.id, id),
  },
]);

aimAt(A_THREADS, [
  {
    surface: "REST GET /api/v1/threads/:id/extraction",
    auths: BOTH,
    expect: refused(404),
    send: (id) => rest.extraction(id),
  },
  {
    surface: "REST POST /api/v1/threads/:id/extraction",
    auths: BOTH,
    expect: refused(404),
    send: (id) => rest.extract(id),
  },
  {
    surface: "chat action renameThread",
    auths: SESSION,
    expect: refusedWith({ ok: false }),
    send: (id) => chatThreads.rename(id, "By B"),
  },
  {
    surface: "chat action deleteThread",
    auths: SESSION,
    expect: refusedWith({ ok: false }),
    send: (id) => chatThreads.delete(id),
  },
  { surface: "chat page /chat/[id]", auths: SESSION, expect: refused(404), send: (id) => consolePages.thread(id) },
]);

aimAt(A_KEYS, [
  { surface: "REST DELETE /api/v1/keys/:id", auths: SESSION, expect: refused(404), send: (id) => rest.revokeKey(id) },
  { surface: "REST DELETE /api/v1/keys/:id", auths: KEY, expect: refused(403), send: (id) => rest.revokeKey(id) },
  {
    surface: "settings action revokeKey",
    auths: SESSION,
    expect: refusedWith({ ok: false }),
    send: (id) => consoleActions.revokeKey(id),
  },
]);
aimAt(
  [{ attack: "A's key secret as the id", target: { a: (f) => f.a.key.secret, unknown: `ml_${"x".repeat(43)}` } }],
  [{ surface: "REST DELETE /api/v1/keys/:id", auths: SESSION, expect: refused(404), send: (id) => rest.revokeKey(id) }],
);

aimAt(A_WEBHOOKS, [
  { surface: "REST GET /api/v1/webhooks/:id", auths: BOTH, expect: refused(404), send: (id) => rest.webhook(id) },
  {
    surface: "REST PATCH /api/v1/webhooks/:id",
    auths: BOTH,
    expect: refused(404),
    send: (id) => rest.patchWebhook(id, { enabled: false }),
  },
  {
    surface: "REST DELETE /api/v1/webhooks/:id",
    auths: BOTH,
    expect: refused(404),
    send: (id) => rest.deleteWebhook(id),
  },
  {
    surface: "REST GET /api/v1/webhooks/:id/deliveries",
    auths: BOTH,
    expect: refused(404),
    send: (id) => rest.webhookDeliveries(id),
  },
  {
    surface: "REST POST /api/v1/webhooks/:id/deliveries/:deliveryId/redeliver",
    auths: BOTH,
    expect: refused(404),
    send: (id, f) => rest.redeliver(id, f.a.webhook.deliveryId),
  },
  {
    surface: "settings action deleteWebhook",
    auths: SESSION,
    expect: refusedWith({ ok: false }),
    send: (id) => consoleActions.deleteWebhook(id),
  },
  {
    surface: "settings action enableWebhook",
    auths: SESSION,
    expect: refusedWith({ ok: false }),
    send: (id) => consoleActions.enableWebhook(id),
  },
  {
    surface: "settings action redeliver",
    auths: SESSION,
    expect: refusedWith({ ok: false }),
    send: (id, f) => consoleActions.redeliver(id, f.a.webhook.deliveryId),
  },
]);

aimAt(A_RUNS, [
  {
    surface: "console action retryRun",
    auths: SESSION,
    expect: refusedWith({ ok: false }),
    send: (id) => consoleActions.retryRun(id),
  },
]);

/* ---------- namespaces like A's ---------- */

const INVALID = refused(422);
alongNamespaces([
  {
    surface: "REST POST /api/v1/memories",
    verb: "create under",
    auths: BOTH,
    valid: own(201),
    invalid: INVALID,
    send: (namespace) => rest.create({ content: "Bob's plan", namespace, key: freshKey() }),
  },
  {
    surface: "REST POST /api/v1/memories/search",
    verb: "search under",
    auths: BOTH,
    valid: own(200),
    invalid: INVALID,
    send: (namespace) => rest.search({ query: "Alice's locker plan code", namespace }),
  },
  {
    surface: "LangGraph PUT /store/items",
    verb: "put under",
    auths: BOTH,
    valid: own(204),
    invalid: INVALID,
    send: (namespace) => store.put(namespace, freshKey(), { content: "Bob's item" }),
  },
  {
    surface: "LangGraph DELETE /store/items",
    verb: "delete key plan under",
    auths: BOTH,
    valid: own(204),
    invalid: INVALID,
    send: (namespace) => store.delete(namespace, "plan"),
  },
  {
    surface: "LangGraph POST /store/items/search",
    verb: "search prefix",
    auths: BOTH,
    valid: own(200),
    invalid: INVALID,
    send: (namespace) => store.search({ namespace_prefix: namespace, query: "Alice locker plan" }),
  },
  {
    surface: "LangGraph POST /store/items/search",
    verb: "list prefix",
    auths: BOTH,
    valid: own(200),
    invalid: INVALID,
    send: (namespace) => store.search({ namespace_prefix: namespace, limit: 100 }),
  },
  {
    surface: "LangGraph POST /store/namespaces",
    verb: "prefix",
    auths: BOTH,
    valid: own(200),
    invalid: INVALID,
    send: (namespace) => store.namespaces({ prefix: namespace }),
  },
  {
    surface: "LangGraph POST /store/namespaces",
    verb: "suffix",
    auths: BOTH,
    valid: own(200),
    invalid: INVALID,
    send: (namespace) => store.namespaces({ suffix: namespace }),
  },
  {
    surface: "MCP add_memory",
    verb: "add under",
    auths: BOTH,
    valid: own(),
    invalid: MCP_ERROR,
    send: (namespace) => mcp("add_memory", { content: "Bob's MCP note", namespace }),
  },
  {
    surface: "MCP search_memories",
    verb: "search under",
    auths: BOTH,
    valid: own(),
    invalid: MCP_ERROR,
    send: (namespace) => mcp("search_memories", { query: "Alice's locker plan", namespace }),
  },
  {
    surface: "MCP list_memories",
    verb: "list under",
    auths: BOTH,
    valid: own(),
    invalid: MCP_ERROR,
    send: (namespace) => mcp("list_memories", { namespace, limit: 100 }),
  },
  // The tools' namespace is fixed when they are built: a bad one fails the wiring, before any model sees it.
  {
    surface: "chat tool manage_memory",
    verb: "create with the tools' namespace",
    auths: SESSION,
    valid: own(),
    invalid: refusedWith({ thrown: expect.any(String) }),
    send: (namespace) => tool(agentOfB(), "manage_memory", { action: "create", content: "Bob's note" }, { namespace }),
  },
  {
    surface: "chat tool search_memory",
    verb: "search with the tools' namespace",
    auths: SESSION,
    valid: own(),
    invalid: refusedWith({ thrown: expect.any(String) }),
    send: (namespace) => tool(agentOfB(), "search_memory", { query: "Alice's locker plan" }, { namespace }),
  },
  // An export file of A's (A's ids and namespaces) lands in B's root; a bad namespace skips the memory.
  {
    surface: "console action import",
    verb: "a file with A's memory id under",
    auths: SESSION,
    valid: own(),
    invalid: refusedWith({ outcome: "applied", created: 0 }),
    send: (namespace, f) =>
      consoleActions.import({ file: exportFile([exported(f.a.memories.active, namespace, freshKey())]), apply: true }),
    check: (body) => expect(body).toMatchObject({ outcome: "applied", created: 1 }),
  },
]);

alongDottedNamespaces([
  {
    surface: "REST GET /api/v1/memories",
    verb: "list under",
    auths: BOTH,
    valid: own(200),
    invalid: INVALID,
    send: (dotted) => rest.list(`?${new URLSearchParams({ namespace: dotted, status: "all" })}`),
  },
  {
    surface: "REST GET /api/v1/memories",
    verb: "search with q under",
    auths: BOTH,
    valid: own(200),
    invalid: INVALID,
    send: (dotted) => rest.list(`?${new URLSearchParams({ namespace: dotted, q: "locker" })}`),
  },
  {
    surface: "LangGraph GET /store/items",
    verb: "get key plan under",
    auths: BOTH,
    valid: own(200),
    invalid: INVALID,
    send: (dotted) => store.get(dotted, "plan"),
  },
  // The console drops a filter it cannot read (a hand-edited URL never breaks the page).
  {
    surface: "console page /memories",
    verb: "filter",
    auths: SESSION,
    valid: own(200),
    invalid: own(200),
    send: (dotted) => consolePages.memories({ namespace: dotted, status: "all" }),
  },
]);

for (const { attack, key } of ITEM_KEYS) {
  add("LangGraph GET /store/items", BOTH, `prefs + ${attack}`, own(200), (_t, f) => store.get("prefs", key(f)), {
    check: (body) => expect(body).toBeNull(),
  });
  add("LangGraph DELETE /store/items", BOTH, `prefs + ${attack}`, own(204), (_t, f) => store.delete(["prefs"], key(f)));
  // B storing under A's id would put that id into B's own data, where later rows would rightly find it.
  if (attack !== "A's memory id as the key") {
    const put = (_t: string, f: Fixture) => store.put(["prefs"], key(f), { content: "Bob's editor" });
    add("LangGraph PUT /store/items", BOTH, `prefs + ${attack}`, own(204), put);
  }
}

/* ---------- REST v1: the rest ---------- */

// Once: a second try would meet B's own memory (a 409 about B's data).
add("REST POST /api/v1/memories", SESSION, "A's key plan in A's namespace team/1", own(201), () =>
  rest.create({ content: "Bob's plan", namespace: ["team", "1"], key: "plan" }),
);
add("REST POST /api/v1/memories", BOTH, "a profile (one per namespace) where A has one", own(201), () =>
  rest.create({ kind: "profile", content: { name: "Bob" }, namespace: [freshKey()] }),
);
add("REST POST /api/v1/memories", BOTH, "a body naming A's user id", refused(422), () =>
  rest.create({ content: "x", userId: A_ID }),
);
add("REST POST /api/v1/memories", BOTH, "a body naming A's chat as provenance", refused(422), () =>
  rest.create({ content: "x", provenance: { threadId: "t1", messageId: "m-a-1" } }),
);
add("REST POST /api/v1/memories/search", BOTH, "A's words, no namespace", own(200), () =>
  rest.search({ query: "what is Alice's locker code?" }),
);
add("REST POST /api/v1/memories/search", BOTH, "A's words and a metadata filter", own(200), () =>
  rest.search({ query: "old pin", filter: { tag: { $ne: "x" } } }),
);
add("REST POST /api/v1/memories/search", BOTH, "A's words in profiles", own(200), () =>
  rest.search({ query: "Alice Lisbon", kind: "profile" }),
);
add(
  "REST DELETE /api/v1/memories/:id?purge=true",
  BOTH,
  "B's memory worded like A's chat and run log",
  own(200),
  async () => rest.delete((await sharedMemoryOfB()).id, "?purge=true"),
);
add("REST GET /api/v1/memories", BOTH, "a raw encoded slash in the namespace", own(200), () =>
  rest.list("?namespace=team%2F1"),
);
add("REST GET /api/v1/memories", BOTH, "a cursor built from A's memory", own(200), (_t, f) =>
  rest.list(`?status=all&cursor=${forged("updated_desc", f.a.memories.active)}`),
);
add("REST GET /api/v1/memories", BOTH, "every status, no filter", own(200), () => rest.list("?status=all&limit=200"));
add("REST GET /api/v1/memories", BOTH, "a repeated namespace parameter", own(200), () =>
  rest.list("?namespace=team.10&namespace=team.1"),
);
add("REST GET /api/v1/threads/:id/extraction", BOTH, "A's other thread id", refused(404), (id) => rest.extraction(id), {
  target: { a: (f) => f.a.sharedThreadId, unknown: UNKNOWN_THREAD },
});
add("REST GET /api/v1/threads/:id/extraction", BOTH, "B's own thread t10 (A's t1 is its prefix)", own(200), (_t, f) =>
  rest.extraction(f.b.threadId),
);
add("REST GET /api/v1/keys", SESSION, "list keys", own(200), () => rest.keys(), {
  check: (body, f) => expect((body as { keys: Array<{ id: string }> }).keys.map((key) => key.id)).toContain(f.b.key.id),
});
add("REST GET /api/v1/keys", KEY, "list keys with a key", refused(403), () => rest.keys());
add("REST POST /api/v1/keys", SESSION, "issue a key", own(201), () =>
  rest.createKey({ name: "bob new", scopes: ["read"] }),
);
add("REST POST /api/v1/keys", KEY, "issue a key with a key", refused(403), () =>
  rest.createKey({ name: "bob new", scopes: ["read"] }),
);
add("REST POST /api/v1/keys", SESSION, "issue a key naming A's user id", refused(422), () =>
  rest.createKey({ name: "for A", scopes: ["read"], userId: A_ID }),
);
add("REST GET /api/v1/me", BOTH, "who am I", own(200), () => rest.me(), {
  check: (body) => expect(body).toMatchObject({ userId: B_ID, root: ["users", B_ID] }),
});

add("REST GET /api/v1/usage", BOTH, "the last 30 days", own(200), () => rest.usage());
add(
  "REST GET /api/v1/usage",
  BOTH,
  "the day A spent on",
  own(200),
  () => rest.usage("?from=2026-01-15&to=2026-01-15"),
  {
    check: (body) => expect((body as { days: unknown[] }).days).toEqual([]),
  },
);
add("REST GET /api/v1/usage", BOTH, "naming A's user id", refused(422), () => rest.usage(`?userId=${A_ID}`));

/* ---------- review, rules, settings ---------- */

aimAt(A_PROPOSALS, [
  {
    surface: "REST POST /api/v1/proposals/:id/approve",
    auths: SESSION,
    expect: refused(404),
    send: (id) => rest.approve(id),
  },
  {
    surface: "REST POST /api/v1/proposals/:id/approve",
    verb: "as edited,",
    auths: SESSION,
    expect: refused(404),
    send: (id) => rest.approve(id, { content: "B's words" }),
  },
  {
    surface: "REST POST /api/v1/proposals/:id/approve",
    auths: KEY,
    expect: refused(403),
    send: (id) => rest.approve(id),
  },
  {
    surface: "REST POST /api/v1/proposals/:id/reject",
    auths: SESSION,
    expect: refused(404),
    send: (id) => rest.reject(id, { reason: "no" }),
  },
  {
    surface: "REST POST /api/v1/proposals/:id/reject",
    auths: KEY,
    expect: refused(403),
    send: (id) => rest.reject(id),
  },
]);
aimAt(A_RULES, [
  { surface: "REST DELETE /api/v1/rules/:id", auths: SESSION, expect: refused(404), send: (id) => rest.deleteRule(id) },
  { surface: "REST DELETE /api/v1/rules/:id", auths: KEY, expect: refused(403), send: (id) => rest.deleteRule(id) },
]);
const noProposals = (body: unknown) => expect((body as { proposals: unknown[] }).proposals).toEqual([]);
add("REST GET /api/v1/proposals", BOTH, "list B's proposals", own(200), () => rest.proposals(), {
  check: noProposals,
});
add(
  "REST GET /api/v1/proposals",
  BOTH,
  "A's pending ones by status",
  own(200),
  () => rest.proposals("?status=pending"),
  {
    check: noProposals,
  },
);
add(
  "REST GET /api/v1/proposals",
  BOTH,
  "naming A's thread",
  own(200),
  (_t, f) => rest.proposals(`?threadId=${f.a.threadId}`),
  {
    check: noProposals,
  },
);
add(
  "REST GET /api/v1/proposals",
  BOTH,
  "a cursor built from A's proposal",
  own(200),
  (_t, f) => rest.proposals(`?cursor=${forged("proposals", f.a.proposal)}`),
  { check: noProposals },
);
add("REST GET /api/v1/proposals", BOTH, "naming A's user id", refused(422), () => rest.proposals(`?userId=${A_ID}`));
add("REST GET /api/v1/rules", BOTH, "list rules", own(200), () => rest.rules(), {
  check: (body) =>
    expect((body as { rules: unknown[] }).rules.every((r) => !JSON.stringify(r).includes("qz"))).toBe(true),
});
add("REST POST /api/v1/rules", BOTH, "add a rule", own(201), () =>
  rest.createRule({ text: "Bob's rule", terms: ["tuba"] }),
);
add("REST POST /api/v1/rules", BOTH, "add a rule naming A's user id", refused(422), () =>
  rest.createRule({ text: "for A", userId: A_ID }),
);
add("REST GET /api/v1/settings", BOTH, "B's settings, not A's", own(200), () => rest.settings(), {
  check: (body) => expect(body).toEqual({ review: "deletes" }),
});
add("REST PATCH /api/v1/settings", SESSION, "B's review mode", own(200), () =>
  rest.patchSettings({ review: "deletes" }),
);
add("REST PATCH /api/v1/settings", KEY, "with a key", refused(403), () => rest.patchSettings({ review: "off" }));
add("REST POST /api/v1/feedback", BOTH, "rate A's answer", refused(404), (_t, f) =>
  rest.feedback({ messageId: f.a.answerId, rating: "down", comment: "B's words" }),
);
add("REST POST /api/v1/feedback", BOTH, "naming A's user id", refused(422), (_t, f) =>
  rest.feedback({ messageId: f.a.answerId, rating: "up", userId: A_ID }),
);
add("REST GET /api/v1/instructions", BOTH, "B's instructions, not A's", own(200), () => rest.instructions(), {
  check: (body) => expect(body).toEqual({ instructions: null, versions: [] }),
});
add("REST PUT /api/v1/instructions", SESSION, "B's own instructions", own(200), () =>
  rest.putInstructions({ text: "Bob likes haiku." }),
);
add("REST PUT /api/v1/instructions", KEY, "with a key", refused(403), () =>
  rest.putInstructions({ text: "Obey the agent." }),
);
add("REST PATCH /api/v1/settings", SESSION, "naming A's user id", refused(422), () =>
  rest.patchSettings({ review: "off", userId: A_ID }),
);

aimAt(A_PROPOSALS.slice(0, 1), [
  {
    surface: "console action decideProposal",
    verb: "approve",
    auths: SESSION,
    expect: NOT_FOUND,
    send: (id) => consoleActions.decideProposal({ id, decision: "approve" }),
  },
  {
    surface: "console action decideProposal",
    verb: "reject",
    auths: SESSION,
    expect: NOT_FOUND,
    send: (id) => consoleActions.decideProposal({ id, decision: "reject", reason: "no" }),
  },
  {
    surface: "console action decideProposals",
    verb: "bulk approve",
    auths: SESSION,
    expect: refusedWith({ ok: true, decided: 0, skipped: [expect.objectContaining({ message: expect.any(String) })] }),
    send: (id) => consoleActions.decideProposals({ ids: [id], decision: "approve" }),
  },
]);
aimAt(A_RULES.slice(0, 1), [
  {
    surface: "console action removeRule",
    auths: SESSION,
    expect: NOT_FOUND,
    send: (id) => consoleActions.removeRule(id),
  },
]);
add("console page /memories/review", SESSION, "B's review queue", own(200), () => consolePages.review());
add("console page /memories/review", SESSION, "rejected ones", own(200), () =>
  consolePages.review({ status: "rejected" }),
);
add("console page /memories/review", SESSION, "a cursor built from A's proposal", own(200), (_t, f) =>
  consolePages.review({ cursor: forged("proposals", f.a.proposal) }),
);
add("console page /memories/review", SESSION, "as A (not an admin)", refused(404), () =>
  consolePages.review({ as: A_ID }),
);
add("console page /memories/rules", SESSION, "B's rules", own(200), () => consolePages.rules());
add("console page /memories/instructions", SESSION, "B's instructions", own(200), () => consolePages.instructions());
add("console page /memories/instructions", SESSION, "as A (not an admin)", refused(404), () =>
  consolePages.instructions({ as: A_ID }),
);
add("console page /memories/rules", SESSION, "as A (not an admin)", refused(404), () =>
  consolePages.rules({ as: A_ID }),
);
add("settings page /settings", SESSION, "B's review mode", own(200), () => consolePages.settings());

/* ---------- LangGraph: the rest ---------- */

add("LangGraph GET /store/items", BOTH, "no namespace at all", refused(422), () => store.getRaw("key=editor"));
add("LangGraph GET /store/items", BOTH, "a repeated namespace parameter", own(200), () =>
  store.getRaw("namespace=team.10&namespace=prefs&key=editor"),
);
add("LangGraph POST /store/items/search", BOTH, "A's words across B's root", own(200), () =>
  store.search({ query: "Alice edits with which editor?" }),
);
add("LangGraph POST /store/items/search", BOTH, "a filter matching any value", own(200), () =>
  store.search({ filter: { name: { $ne: "nobody" } }, limit: 100 }),
);
add("LangGraph POST /store/items/search", BOTH, "the deepest offset", own(200), () =>
  store.search({ offset: 1_000, limit: 100 }),
);
add("LangGraph POST /store/namespaces", BOTH, "every namespace", own(200), () => store.namespaces({ limit: 1_000 }));
add("LangGraph POST /store/namespaces", BOTH, "max_depth 1", own(200), () => store.namespaces({ max_depth: 1 }));
// B has put its own prefs/editor by now: the SDK must read B's, never A's.
add(
  "LangGraph SDK client",
  BOTH,
  "getItem prefs/editor",
  own(200),
  () => sdk((client) => client.store.getItem(["prefs"], "editor")),
  { check: (body) => expect(body).toMatchObject({ value: { content: "Bob's editor" } }) },
);
add("LangGraph SDK client", BOTH, "putItem next to A's prefs/editor", own(200), () =>
  sdk((client) => client.store.putItem(["prefs", "sdk"], "editor", { content: "Bob uses Zed" })),
);
add("LangGraph SDK client", BOTH, "deleteItem A's team/1 plan", own(200), () =>
  sdk((client) => client.store.deleteItem(["team", "1"], "plan")),
);
add("LangGraph SDK client", BOTH, "searchItems for A's words", own(200), () =>
  sdk((client) => client.store.searchItems(["prefs"], { query: "Alice edits" })),
);
add("LangGraph SDK client", BOTH, "listNamespaces", own(200), () => sdk((client) => client.store.listNamespaces()));

/* ---------- MCP and chat tools: the rest ---------- */

add("MCP search_memories", BOTH, "A's words everywhere", own(), () =>
  mcp("search_memories", { query: "what is Alice's locker code?", limit: 50 }),
);
add("MCP list_memories", BOTH, "a cursor built from A's memory", own(), (_t, f) =>
  mcp("list_memories", { cursor: forged("updated_desc", f.a.memories.active) }),
);
add("MCP search_memory", BOTH, "A's words everywhere", own(), () =>
  mcp("search_memory", { query: "what is Alice's locker code?", limit: 20 }),
);
add("MCP manage_memory", BOTH, "create in the key's root", own(), () =>
  mcp("manage_memory", { action: "create", content: "Bob's MCP tool note" }),
);
add("chat tool search_memory", SESSION, "A's words", own(), () =>
  tool(agentOfB(), "search_memory", { query: "Alice's locker code plan", limit: 20 }),
);
add("chat tool manage_memory", SESSION, "a {threadId} namespace filled with A's thread id", own(), () =>
  tool(
    contextFor(testDatabase(), B_ID, { actor: { type: "agent", id: "offline" }, provenance: { threadId: "t1" } }),
    "manage_memory",
    { action: "create", content: "Bob's thread note" },
    { namespace: ["threads", "{threadId}"] },
  ),
);

/* ---------- chat threads, console pages and loaders ---------- */

add("chat action loadThreads", SESSION, "a cursor built from A's thread", own(), (_t, f) =>
  chatThreads.load(forged("threads", f.a.threadId)),
);
add("chat action loadThreads", SESSION, "an empty cursor", own(), () => chatThreads.load(""));
add("chat sidebar", SESSION, "B's thread list", own(200), () => consolePages.sidebar());
add("console page /memories/[id]", SESSION, "B's own memory viewed as A (?as=A)", refused(404), (_t, f) =>
  consolePages.memory(f.b.memoryId, { as: A_ID }),
);
add("console page /memories/[id]", SESSION, "A's memory viewed as A (?as=A)", refused(404), (_t, f) =>
  consolePages.memory(f.a.memories.active, { as: A_ID }),
);
add(
  "console loader loadSourceMessage",
  SESSION,
  "A's chat message as B's source",
  own(),
  (_t, f) => consoleLoaders.sourceMessage(f.b.id, { threadId: f.a.threadId, messageId: "m-a-1" }),
  {
    check: (body) => expect(body).toBeNull(),
  },
);
add("console page /memories", SESSION, "B's list", own(200), () => consolePages.memories());
add("console page /memories", SESSION, "A's list (?as=A)", refused(404), () => consolePages.memories({ as: A_ID }));
add("console page /memories", SESSION, "A's list, as= upper-cased", refused(404), () =>
  consolePages.memories({ as: A_ID.toUpperCase() }),
);
add("console page /memories", SESSION, "a search for A's words", own(200), () =>
  consolePages.memories({ q: "Alice's locker plan", status: "all" }),
);
add("console page /memories", SESSION, "a cursor built from A's user id", own(200), () =>
  consolePages.memories({
    cursor: Buffer.from(JSON.stringify({ at: FAR_FUTURE.toISOString(), id: A_ID })).toString("base64url"),
  }),
);
add("console page /memories/runs", SESSION, "B's runs", own(200), () => consolePages.runs());
add("console page /memories/runs", SESSION, "failed runs", own(200), () => consolePages.runs({ status: "failed" }));
add("console page /memories/runs", SESSION, "a cursor built from A's run", own(200), (_t, f) =>
  consolePages.runs({ cursor: forged("runs", f.a.runs.succeeded) }),
);
add("console page /memories/runs", SESSION, "a cursor whose id is not a run id", own(200), () =>
  consolePages.runs({ cursor: forged("runs", "t1") }),
);
add("console page /memories/access-log", SESSION, "B's access log", own(200), () => consolePages.accessLog());
add("console page /memories/usage", SESSION, "B's usage and cost", own(200), () => consolePages.usage());
add("console page /memories/access-log", SESSION, "a cursor from the far future", own(200), () =>
  consolePages.accessLog({ cursor: forged("audit", UNKNOWN_UUID) }),
);
add("console page /memories/access-log", SESSION, "a cursor whose id is not an entry id", own(200), () =>
  consolePages.accessLog({ cursor: forged("audit", "t1") }),
);
add("console page /memories/admin", SESSION, "the user picker", refused(404), () => consolePages.admin());
add("console page /memories/admin", SESSION, "a search for A", refused(404), () => consolePages.admin({ q: "Alice" }));
add("console page /memories/system", SESSION, "the system status", refused(404), () => consolePages.system());
add("console page /memories/transfer", SESSION, "export and import", own(200), () => consolePages.transfer());
add("settings page /settings/keys", SESSION, "B's keys", own(200), () => consolePages.keys());
add("settings page /settings/webhooks", SESSION, "B's webhooks", own(200), () => consolePages.webhooks());
add("REST GET /api/v1/webhooks", BOTH, "list webhooks", own(200), () => rest.webhooks(), {
  check: (body) => expect((body as { webhooks: unknown[] }).webhooks).toEqual([]),
});
add("REST POST /api/v1/webhooks", BOTH, "add a webhook", own(201), () =>
  rest.createWebhook({ url: "https://hooks.example.com/bob", events: ["memory.created"] }),
);

/* ---------- console and settings actions: the rest ---------- */

function exportFile(memories: unknown[]) {
  return JSON.stringify({
    format: "memory-ledger/export",
    version: 1,
    exportedAt: "2026-01-01T00:00:00.000Z",
    memories,
  });
}
/** One memory as an export file holds it, with A's id and A as the last writer. */
function exported(id: string, namespace: string[], key: string) {
  const at = "2026-01-01T00:00:00.000Z";
  const content = { content: "Bob's imported note" };
  const actor = { type: "user", id: A_ID };
  return {
    id,
    namespace,
    key,
    kind: "memory",
    content,
    text: content.content,
    status: "active",
    version: 1,
    metadata: {},
    createdAt: at,
    updatedAt: at,
    source: { type: "api" },
    actor,
  };
}

add("console action changeStatus", SESSION, "purge B's memory worded like A's chat and run log", own(), async () =>
  consoleActions.status({ id: (await sharedMemoryOfB()).id, op: "purge", confirm: "purge" }),
);
add(
  "console action editMemory",
  SESSION,
  "A's id naming A as the owner",
  refusedWith({ ok: false, error: expect.objectContaining({ code: "unprocessable" }) }),
  (_t, f) => consoleActions.edit({ id: f.a.memories.active, expectedVersion: 1, content: { content: "x" }, as: A_ID }),
);
add("console action bulkStatus", SESSION, "all of A's ids at once", refusedWith({ ok: true, changed: 0 }), (_t, f) =>
  consoleActions.bulk({ ids: [...Object.values(f.a.memories), ...f.a.namespaced], op: "delete" }),
);
add("console action import", SESSION, "A's key plan in A's namespace team/1", own(), (_t, f) =>
  consoleActions.import({ file: exportFile([exported(f.a.memories.active, ["team", "1"], "plan")]), apply: true }),
);
add("console action import", SESSION, "a plan only, naming A's ids", own(), (_t, f) =>
  consoleActions.import({ file: exportFile([exported(f.a.memories.deleted, ["team", "1"], "plan")]), apply: false }),
);
add("console GET /memories/export", SESSION, "B's export", own(200), () => consoleActions.export());
add("console GET /memories/export", KEY, "with a key and no session", refused(401), () => consoleActions.export());
add("settings action createKey", SESSION, "a key named like A's", own(), () =>
  consoleActions.createKey({ name: "laptop", scopes: ["read"], expiresOn: "" }),
);
add("settings action createKey", SESSION, "a form naming A's user id", own(), () =>
  consoleActions.createKey({ name: "for A", scopes: ["read"], expiresOn: "", userId: A_ID }),
);

/* ---------- the chat route: B's chats may reuse A's thread and message ids ---------- */

const nextMessage = () => `m-b-${freshKey()}`;
add("chat POST /api/chat", BOTH, "ask for A's locker code", own(200), (_t, f) =>
  chat(say(f.b.threadId, nextMessage(), "What is my locker code?")),
);
add("chat POST /api/chat", BOTH, "ask for A's profile", own(200), (_t, f) =>
  chat(say(f.b.threadId, nextMessage(), "Where do I live, Lisbon?")),
);
add("chat POST /api/chat", BOTH, "forget A's locker plan", own(200), (_t, f) =>
  chat(say(f.b.threadId, nextMessage(), "Forget my locker plan")),
);
add("chat POST /api/chat", SESSION, "reuse A's message id m-a-2", own(200), (_t, f) =>
  chat(say(f.b.threadId, "m-a-2", "Remember that my locker code is 0000")),
);
add(
  "chat POST /api/chat",
  BOTH,
  "regenerate in A's thread",
  refused(422),
  (id) => chat({ id, trigger: "regenerate-message" }),
  { target: { a: (f) => f.a.threadId, unknown: UNKNOWN_THREAD } },
);
aimAt(A_THREADS_NOT_IDS, [
  {
    surface: "chat POST /api/chat",
    verb: "send to",
    auths: BOTH,
    expect: refused(422),
    send: (id) => chat(say(id, nextMessage(), "hello")),
  },
]);
add("chat POST /api/chat", BOTH, "continue under A's thread id (a chat of B's own)", own(200), (_t, f) =>
  chat(say(f.a.sharedThreadId, nextMessage(), "What is my bike lock?")),
);
add("chat POST /api/chat", SESSION, "A's thread id and A's message id m-a-3 together", own(200), (_t, f) =>
  chat(say(f.a.sharedThreadId, "m-a-3", "Remember that my bike is blue")),
);
add("chat page /chat/[id]", SESSION, "B's own chat t10 after asking for A's facts", own(200), (_t, f) =>
  consolePages.thread(f.b.threadId),
);
add("chat page /chat/[id]", SESSION, "B's own chat under A's thread id", own(200), (_t, f) =>
  consolePages.thread(f.a.sharedThreadId),
);
for (const messageId of ["m-a-2", "m-a-3"]) {
  add(
    "console page /memories/[id]",
    SESSION,
    `B's memory sourced from B's message ${messageId} (A has one too)`,
    own(200),
    async () => {
      const [memory] = await testDatabase().unbound.rows<{ id: string }>(
        sql`select id from memories where user_id = ${B_ID}::uuid and message_id = ${messageId} limit 1`,
      );
      if (!memory) throw new Error(`B has no memory from ${messageId}`);
      return consolePages.memory(memory.id);
    },
  );
}

/* ---------- the extraction worker on B's chat under A's thread id (last: B's run log keeps A's ids) ---------- */

/** Runs B's extraction over one new message in B's chat under A's thread id, with a manager proposing `ops`. */
async function extractForB(f: Fixture, text: string, ops: (messageId: string) => ExtractionOp[]): Promise<Outcome> {
  const messageId = nextMessage();
  await addExchange(testDatabase(), B_ID, f.a.sharedThreadId, [messageId, "user", text]);
  const ctx = { ...contextFor(testDatabase(), B_ID), actor: { type: "extractor" as const, id: "scripted" } };
  return result(() =>
    runExtraction(
      { ctx, modelId: "scripted", model: scriptedManager(ops(messageId)) },
      { threadId: f.a.sharedThreadId, jobId: `job-${messageId}`, finalAttempt: true },
    ),
  );
}
const appliedNothing = { check: (body: unknown) => expect(body).toMatchObject({ status: "succeeded", applied: [] }) };
const appliedOne = {
  check: (body: unknown) => expect((body as { applied: unknown[] }).applied, JSON.stringify(body)).toHaveLength(1),
};
const proposals = A_MEMORY_UUIDS.map(({ attack, target }) => ({ attack, target: { a: target.a } }));

for (const { attack, target } of proposals) {
  add(
    "extraction worker runExtraction",
    SESSION,
    `update ${attack}`,
    own(),
    (id, f) =>
      extractForB(f, "My plan changed", (messageId) => [
        { op: "update", id, expectedVersion: 1, content: "B was here", messageId, quote: "plan changed", reason: "x" },
      ]),
    { target, ...appliedNothing },
  );
  add(
    "extraction worker runExtraction",
    SESSION,
    `delete ${attack}`,
    own(),
    (id, f) =>
      extractForB(f, "Forget the plan", (messageId) => [
        { op: "delete", id, messageId, quote: "Forget the plan", reason: "asked to" },
      ]),
    { target, ...appliedNothing },
  );
}
add(
  "extraction worker runExtraction",
  SESSION,
  "insert citing A's message in A's chat of that id",
  own(),
  (_t, f) =>
    extractForB(f, "My bike is red", () => [
      { op: "insert", kind: "memory", content: "User's bike lock", messageId: "m-a-3", quote: "my bike lock is" },
    ]),
  appliedNothing,
);
add(
  "extraction worker runExtraction",
  SESSION,
  "insert like A's deleted fact (A's tombstone is not B's)",
  own(),
  (_t, f) =>
    extractForB(f, "Note Alice's old pin", (messageId) => [
      { op: "insert", kind: "memory", content: "Alice's old pin", messageId, quote: "Alice's old pin" },
    ]),
  appliedOne,
);
add(
  "extraction worker runExtraction",
  SESSION,
  "insert A's deleted fact word for word",
  own(),
  (_t, f) =>
    extractForB(f, "My old bike was green", (messageId) => [
      { op: "insert", kind: "memory", content: A_PLAIN_DELETED, messageId, quote: "old bike was green" },
    ]),
  appliedOne,
);
add(
  "extraction worker runExtraction",
  SESSION,
  "insert A's active fact word for word (no duplicate of A's)",
  own(),
  (_t, f) =>
    extractForB(f, "I drink oolong tea", (messageId) => [
      { op: "insert", kind: "memory", content: A_PLAIN_ACTIVE, messageId, quote: "drink oolong tea" },
    ]),
  appliedOne,
);

/* ---------- the runner ---------- */

/** A's secrets in `text` other than those B itself sent. */
function leaks(text: string, f: Fixture, sent: string): string[] {
  return f.a.secrets.filter((secret) => text.includes(secret) && !sent.includes(secret));
}

/** Key use stamps `last_used_at` and the audit log (B's rows); that is all a refused request may write. */
const KEY_BOOKKEEPING = new Set(["api_keys", "audit_log"]);

/** Changed rows that are not B's, and rows B wrote with a namespace (memories, extraction runs) outside B's root. */
function ownership(changes: RowChange[]) {
  const foreign = changes.filter((change) => change.owner !== B_ID);
  const outsideRoot = changes.filter((change) => {
    if (change.change !== "added") return false;
    const { namespace } = JSON.parse(change.json) as { namespace?: string[] };
    return namespace !== undefined && (namespace[0] !== "users" || namespace[1] !== B_ID);
  });
  return { foreign, outsideRoot };
}

/** The answer with the id it names replaced (where it stands alone, so `t_` in `not_found` stays). */
function normalise(outcome: Outcome, id: string) {
  const escaped = JSON.stringify(id)
    .slice(1, -1)
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const text = textOf({ status: outcome.status, body: outcome.body });
  return JSON.parse(text.replace(new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, "g"), "<id>"));
}

/**
 * On Citus, each request once, with session and key auth taking turns: the auth layer names the user before the
 * database is touched, so what Citus adds (a user's rows on one shard, row-level security on the workers) is proven
 * by every request once; both auths by every request run on PGlite and PostgreSQL (docs/testing.md, "Time").
 */
function eachRequestOnce(rows: Row[]): Row[] {
  // One request is one row of `add` sent with each of its auths: the same send, surface and attack.
  const requests = new Map<Row["send"], Map<string, Row[]>>();
  for (const row of rows) {
    const bySend = requests.get(row.send) ?? new Map<string, Row[]>();
    const key = `${row.surface} × ${row.attack}`;
    bySend.set(key, [...(bySend.get(key) ?? []), row]);
    requests.set(row.send, bySend);
  }
  return [...requests.values()]
    .flatMap((bySend) => [...bySend.values()])
    .map((auths, index) => auths[index % auths.length]!);
}

describeEachDatabase("cross-user isolation", (use, backend) => {
  const rows = backend === "citus" ? eachRequestOnce(table) : table;
  let f: Fixture;
  let snapshot: RowSnapshot;
  let aRowsAtStart: string[];

  const rowsOf = (rows: RowSnapshot, owner: string) =>
    allRows(rows)
      .filter((row) => row.owner === owner)
      .map((row) => `${row.table} ${row.json}`)
      .sort();

  beforeAll(async () => {
    setEnv({ API_RATE_LIMIT_PER_MINUTE: "100000" });
    harness.database = use();
    f = await seedFixture(use());
    harness.principal = principalFor(B_ID);
    harness.mcp.session = await connectMcp(null);
    harness.mcp.key = await connectMcp(f.b.key.secret);
    snapshot = await snapshotRows(use());
    aRowsAtStart = rowsOf(snapshot, A_ID);
  });

  afterAll(async () => {
    await harness.mcp.session?.close();
    await harness.mcp.key?.close();
    harness.mcp = { session: null, key: null };
  });

  async function attempt(row: Row, target: string) {
    harness.auth = row.auth;
    harness.principal = row.auth === "session" ? principalFor(B_ID) : null;
    harness.apiKey = row.auth === "key" ? f.b.key.secret : null;
    harness.enqueued.length = 0;
    const outcome = await row.send(target, f);
    await Promise.all(harness.pending.splice(0));
    const after = await snapshotRows(use(), snapshot);
    const changes = changedRows(snapshot, after);
    snapshot = after;
    return { outcome, changes, enqueued: [...harness.enqueued] };
  }

  it("has a row for every surface", () => {
    expect(new Set(table.map((row) => row.surface))).toEqual(new Set(SURFACES));
    console.info(`cross-user isolation: ${table.length} rows over ${SURFACES.length} surfaces`);
  });

  for (const row of rows) {
    it(`${row.surface} × ${row.attack} [${row.auth}]`, async () => {
      const target = row.target?.a(f) ?? "";
      const { outcome, changes, enqueued } = await attempt(row, target);
      const where = `${textOf(outcome.body).slice(0, 600)}`;

      const { foreign, outsideRoot } = ownership(changes);
      expect(foreign, "rows of someone other than B changed").toEqual([]);
      expect(outsideRoot, "B wrote a memory outside B's root").toEqual([]);
      expect(
        enqueued.filter((job) => job.userId !== B_ID),
        "extraction queued for someone else",
      ).toEqual([]);
      expect(leaks(textOf(outcome.body), f, target), `A's data in the answer: ${where}`).toEqual([]);

      if ("refused" in row.expect || "refusedWith" in row.expect) {
        if ("refused" in row.expect) expect(outcome.status, where).toBe(row.expect.refused);
        else expect(outcome.body, where).toMatchObject(row.expect.refusedWith as object);
        const written = changes.filter((change) => !KEY_BOOKKEEPING.has(change.table));
        expect(written, "a refused request wrote").toEqual([]);
        expect(enqueued, "a refused request queued extraction").toEqual([]);
      } else {
        expect(outcome.status, where).toBe(row.expect.own);
        if (row.expect.own === null && outcome.body !== null && typeof outcome.body === "object") {
          expect(outcome.body, where).not.toHaveProperty("thrown");
          expect(outcome.body, where).not.toMatchObject({ isError: true });
        }
        row.check?.(outcome.body, f);
      }

      const unknown = row.target?.unknown;
      if (unknown !== undefined) {
        const twin = await attempt(row, unknown);
        expect(ownership(twin.changes).foreign).toEqual([]);
        expect(normalise(outcome, target), "A's id is answered unlike an unknown one").toEqual(
          normalise(twin.outcome, unknown),
        );
      }
    });
  }

  it("leaves every one of A's rows exactly as the fixture wrote them", async () => {
    expect(rowsOf(await snapshotRows(use()), A_ID)).toEqual(aRowsAtStart);
  });
});
