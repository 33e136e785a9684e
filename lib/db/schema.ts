import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";

// Milliseconds, like a JavaScript Date: keyset cursors carry a row's timestamp through a Date, and a database default
// with microseconds would put rows written within the same millisecond on the wrong side of the cursor.
const createdAt = () => timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();

export const users = pgTable("users", {
  id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
  // Stored lower-cased; null for guests until they register.
  email: text("email").unique(),
  name: text("name"),
  passwordHash: text("password_hash"),
  isGuest: boolean("is_guest").notNull().default(false),
  /** Granted by `npm run admin -- grant <email>` only; registering an address never sets it (docs/security.md). */
  isAdmin: boolean("is_admin").notNull().default(false),
  /** When an OAuth provider last reported this email as verified; null for addresses nobody verified. */
  emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true, precision: 3 }),
  /** Bumped by "sign out everywhere": a session token carrying an older generation answers 401. */
  sessionGeneration: integer("session_generation").notNull().default(0),
  /** The last request a session of this user made (kept to the hour); guests idle past GUEST_TTL_DAYS are deleted. */
  lastActiveAt: timestamp("last_active_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const accounts = pgTable(
  "accounts",
  {
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] })],
);

/** Facts about this database that code reads at runtime (e.g. whether pgvector could be created). */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: updatedAt(),
});

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * pgvector's `vector` without a fixed dimension: each row belongs to one model, and switching model adds rows, not
 * columns. Values travel as pgvector's text form, `[0.1,0.2,…]`.
 */
const vector = customType<{ data: number[]; driverData: string }>({
  dataType: () => "vector",
  toDriver: (value) => `[${value.join(",")}]`,
  fromDriver: (value) => JSON.parse(value) as number[],
});

/**
 * Current state of every memory. Keys and constraints lead with `user_id` so the table can be distributed by owner.
 * `text` and `content` are nullable only because purge erases them; `content_hash` survives purge for suppression.
 * `source_*`, `thread_id`, `message_id`, `quote`, `run_id` and `actor_*` describe the write that produced `content`.
 */
export const memories = pgTable(
  "memories",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    namespace: text("namespace").array().notNull(),
    key: text("key").notNull(),
    kind: text("kind").notNull(),
    content: jsonb("content"),
    text: text("text"),
    contentHash: text("content_hash").notNull(),
    status: text("status", { enum: ["active", "deleted", "merged"] }).notNull(),
    version: integer("version").notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    /** Status `merged`: the memory a consolidation run folded this one into (docs/memory-model.md, "Consolidation"). */
    mergedInto: uuid("merged_into"),
    /** The memories folded into this one, each kept with status `merged` and its own source. */
    mergedFrom: uuid("merged_from").array().notNull().default([]),
    sourceType: text("source_type").notNull(),
    threadId: text("thread_id"),
    messageId: text("message_id"),
    quote: text("quote"),
    runId: text("run_id"),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id").notNull(),
    /** Recalled into every chat turn. */
    pinned: boolean("pinned").notNull().default(false),
    /** When the fact held in the world (not when the row changed); null = unknown / open-ended. */
    validFrom: timestamp("valid_from", { withTimezone: true, precision: 3 }),
    validTo: timestamp("valid_to", { withTimezone: true, precision: 3 }),
    purgedAt: timestamp("purged_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    fts: tsvector("fts").generatedAlwaysAs(sql`memory_fts(coalesce("text", ''))`),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    unique("memories_user_namespace_key_unique").on(t.userId, t.namespace, t.key),
    index("memories_user_namespace_idx").on(t.userId, t.namespace),
    index("memories_user_status_updated_idx").on(t.userId, t.status, t.updatedAt, t.id),
    index("memories_user_status_created_idx").on(t.userId, t.status, t.createdAt, t.id),
    // Listing one kind (the profile recalled into every chat turn, the console's kind filter) without walking
    // every memory of the user in time order.
    index("memories_user_kind_updated_idx").on(t.userId, t.kind, t.status, t.updatedAt, t.id),
    index("memories_user_fts_idx").using("gin", t.userId, t.fts),
    check("memories_status_check", sql`${t.status} in ('active', 'deleted', 'merged')`),
    check(
      "memories_validity_check",
      sql`${t.validTo} is null or ${t.validFrom} is null or ${t.validTo} >= ${t.validFrom}`,
    ),
  ],
);

/** Append-only: one row per change to a memory. Purge blanks content, text, metadata, reason and quote here too. */
export const memoryVersions = pgTable(
  "memory_versions",
  {
    userId: uuid("user_id").notNull(),
    memoryId: uuid("memory_id").notNull(),
    version: integer("version").notNull(),
    op: text("op", { enum: ["create", "update", "delete", "restore", "purge"] }).notNull(),
    kind: text("kind").notNull(),
    content: jsonb("content"),
    text: text("text"),
    contentHash: text("content_hash").notNull(),
    status: text("status", { enum: ["active", "deleted", "merged"] }).notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    mergedInto: uuid("merged_into"),
    mergedFrom: uuid("merged_from").array().notNull().default([]),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id").notNull(),
    reason: text("reason"),
    sourceType: text("source_type").notNull(),
    threadId: text("thread_id"),
    messageId: text("message_id"),
    quote: text("quote"),
    runId: text("run_id"),
    pinned: boolean("pinned").notNull().default(false),
    validFrom: timestamp("valid_from", { withTimezone: true, precision: 3 }),
    validTo: timestamp("valid_to", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.memoryId, t.version] }),
    foreignKey({ columns: [t.userId, t.memoryId], foreignColumns: [memories.userId, memories.id] }).onDelete("cascade"),
    index("memory_versions_user_thread_idx").on(t.userId, t.threadId),
    check("memory_versions_op_check", sql`${t.op} in ('create', 'update', 'delete', 'restore', 'purge')`),
    check("memory_versions_status_check", sql`${t.status} in ('active', 'deleted', 'merged')`),
  ],
);

/**
 * Each user's vocabulary: the words of their memories, kept by triggers on `memories` (migration 0024), so a query
 * word the user never wrote can be matched to the closest word they did write. `docs` counts the user's memories not
 * purged (deleted ones too) whose current text holds the word; a word no such memory holds has no row.
 */
export const memoryTerms = pgTable(
  "memory_terms",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    term: text("term").notNull(),
    docs: integer("docs").notNull(),
  },
  (t) => [
    primaryKey({ name: "memory_terms_pk", columns: [t.userId, t.term] }),
    index("memory_terms_trgm_idx").using("gin", t.userId, sql`${t.term} gin_trgm_ops`),
  ],
);

/**
 * Each user's document frequencies: how many of their active memories hold each full-text lexeme, behind a query
 * term's rarity in lexical ranking (BM25). Kept by triggers on `memories` (migrations 0015 and 0024).
 */
export const memoryLexemes = pgTable(
  "memory_lexemes",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lexeme: text("lexeme").notNull(),
    docs: integer("docs").notNull(),
  },
  (t) => [primaryKey({ name: "memory_lexemes_pk", columns: [t.userId, t.lexeme] })],
);

/** Each user's active memories and lexemes in all, behind the average memory length in lexical ranking. */
export const memoryCorpus = pgTable("memory_corpus", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  docs: integer("docs").notNull(),
  lexemes: bigint("lexemes", { mode: "number" }).notNull(),
});

/**
 * One vector per memory and embedding model. The table exists only where pgvector does (migration 0004 creates it
 * conditionally); `content_hash` says which text was embedded, so a vector for an older text is never used.
 */
export const memoryEmbeddings = pgTable(
  "memory_embeddings",
  {
    userId: uuid("user_id").notNull(),
    memoryId: uuid("memory_id").notNull(),
    model: text("model").notNull(),
    embedding: vector("embedding").notNull(),
    contentHash: text("content_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "memory_embeddings_pk", columns: [t.userId, t.memoryId, t.model] }),
    foreignKey({
      name: "memory_embeddings_memory_fk",
      columns: [t.userId, t.memoryId],
      foreignColumns: [memories.userId, memories.id],
    }).onDelete("cascade"),
  ],
);

/** A chat conversation. `summary` folds the turns before message position `summarized_through` (short-term memory). */
export const threads = pgTable(
  "threads",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    title: text("title"),
    summary: text("summary"),
    summarizedThrough: integer("summarized_through").notNull().default(0),
    /** Background extraction has read every message before this position (its cursor). */
    extractedThrough: integer("extracted_through").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] }), index("threads_user_updated_idx").on(t.userId, t.updatedAt, t.id)],
);

/** One AI SDK UI message; `parts` keeps text, tool calls with their results, and data parts as the client saw them. */
export const messages = pgTable(
  "messages",
  {
    userId: uuid("user_id").notNull(),
    id: text("id").notNull(),
    threadId: text("thread_id").notNull(),
    position: integer("position").notNull(),
    role: text("role", { enum: ["user", "assistant", "system"] }).notNull(),
    parts: jsonb("parts").$type<unknown[]>().notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    /** An answer: when the memory writes of its chat turn were undone (a turn is undone once). */
    memoryRevertedAt: timestamp("memory_reverted_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    unique("messages_thread_position_unique").on(t.userId, t.threadId, t.position),
    foreignKey({ columns: [t.userId, t.threadId], foreignColumns: [threads.userId, threads.id] }).onDelete("cascade"),
  ],
);

/** Which memories shaped an answer: recalled into the instructions, or returned by a search_memory call. */
export const memoryAccess = pgTable(
  "memory_access",
  {
    userId: uuid("user_id").notNull(),
    messageId: text("message_id").notNull(),
    memoryId: uuid("memory_id").notNull(),
    threadId: text("thread_id").notNull(),
    via: text("via", { enum: ["recall", "search"] }).notNull(),
    score: real("score").notNull(),
    rank: integer("rank").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.messageId, t.memoryId, t.via] }),
    index("memory_access_user_memory_idx").on(t.userId, t.memoryId, t.createdAt),
  ],
);

/**
 * One background extraction pass over a thread: the messages it read, what the manager proposed, what was applied,
 * what was rejected and why. Written before anything is applied, so a run is always visible, even a failed one.
 */
export const extractionRuns = pgTable(
  "extraction_runs",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    threadId: text("thread_id").notNull(),
    namespace: text("namespace").array().notNull(),
    /** `skipped`: the model was not called (the user's daily budget was reached); `error` says why. */
    status: text("status", { enum: ["queued", "running", "succeeded", "failed", "skipped"] }).notNull(),
    /** Messages at positions [from_position, through_position) were read. */
    fromPosition: integer("from_position").notNull(),
    throughPosition: integer("through_position").notNull(),
    model: text("model"),
    opsProposed: jsonb("ops_proposed").$type<unknown[]>().notNull().default([]),
    opsApplied: jsonb("ops_applied").$type<unknown[]>().notNull().default([]),
    opsRejected: jsonb("ops_rejected").$type<unknown[]>().notNull().default([]),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    jobId: text("job_id"),
    /** Set once the user undid the run's applied ops (POST /api/v1/extraction-runs/:id/revert); a run reverts once. */
    revertedAt: timestamp("reverted_at", { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    index("extraction_runs_user_thread_idx").on(t.userId, t.threadId, t.createdAt),
    index("extraction_runs_user_created_idx").on(t.userId, t.createdAt),
    check("extraction_runs_status_check", sql`${t.status} in ('queued', 'running', 'succeeded', 'failed', 'skipped')`),
  ],
);

/**
 * The cost ledger: one row per unit of model calls (a chat turn with its tool steps, a title, an extraction attempt),
 * with the tokens the provider reported and their price at the time. `cost_usd` is null when the model has no price.
 * Holds no content, only counts and references, so purging a memory leaves nothing here to erase.
 */
export const modelUsage = pgTable(
  "model_usage",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    kind: text("kind", { enum: ["chat", "extraction"] }).notNull(),
    model: text("model").notNull(),
    inputTokens: integer("input_tokens").notNull(),
    outputTokens: integer("output_tokens").notNull(),
    costUsd: numeric("cost_usd", { precision: 18, scale: 10, mode: "number" }),
    threadId: text("thread_id"),
    messageId: text("message_id"),
    runId: uuid("run_id"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    index("model_usage_user_created_idx").on(t.userId, t.createdAt),
    index("model_usage_user_run_idx").on(t.userId, t.runId),
    check("model_usage_kind_check", sql`${t.kind} in ('chat', 'extraction')`),
  ],
);

/** API keys: only a hash of the secret is stored; `prefix` is the part shown back to the owner. */
export const apiKeys = pgTable(
  "api_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    scopes: text("scopes").array().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    // Requests arrive with only the key, so lookup by hash must be global.
    unique("api_keys_key_hash_unique").on(t.keyHash),
  ],
);

/** Reads and uses of a user's data by someone other than that user in a session: admins browsing, API keys. */
export const auditLog = pgTable(
  "audit_log",
  {
    /** Whose data was accessed. */
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    actorType: text("actor_type", { enum: ["admin", "api_key"] }).notNull(),
    actorId: text("actor_id").notNull(),
    action: text("action").notNull(),
    target: text("target"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] }), index("audit_log_user_created_idx").on(t.userId, t.createdAt)],
);

/**
 * Request counts of the rate limits (lib/api/rate-limit.ts), one row per limiter and key for its current window.
 * System data, not a user's: written bound to no user, by every web process, so they all count against one limit.
 */
export const rateLimitWindows = pgTable(
  "rate_limit_windows",
  {
    limiter: text("limiter").notNull(),
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true, precision: 3 }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.limiter, t.key] })],
);

/**
 * A user's webhook endpoints. The secret is kept as issued (signing needs the key itself, unlike an API key's hash)
 * and is never shown again after creation. `disabled_at` is set after repeated failed deliveries (or by hand);
 * a disabled endpoint gets no new deliveries until it is enabled again.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    secret: text("secret").notNull(),
    /** Failures in a row (deliveries that ran out of attempts, and attempts that timed out); reset by a success. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    disabledAt: timestamp("disabled_at", { withTimezone: true, precision: 3 }),
    disabledReason: text("disabled_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    index("webhook_endpoints_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * One event for one endpoint, with its attempts. `payload` is the exact body sent (the same on every attempt);
 * a memory's payloads are reduced to ids when it is purged (`memory_id` finds them).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    endpointId: uuid("endpoint_id").notNull(),
    eventType: text("event_type").notNull(),
    memoryId: uuid("memory_id"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["pending", "sending", "succeeded", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, precision: 3 }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    foreignKey({
      columns: [t.userId, t.endpointId],
      foreignColumns: [webhookEndpoints.userId, webhookEndpoints.id],
      name: "webhook_deliveries_endpoint_fk",
    }).onDelete("cascade"),
    index("webhook_deliveries_endpoint_created_idx").on(t.userId, t.endpointId, t.createdAt),
    index("webhook_deliveries_user_memory_idx").on(t.userId, t.memoryId),
    index("webhook_deliveries_user_unfinished_idx").on(t.userId).where(sql`${t.status} in ('pending', 'sending')`),
    check("webhook_deliveries_status_check", sql`${t.status} in ('pending', 'sending', 'succeeded', 'failed')`),
  ],
);

/**
 * A change the user has not approved yet (docs/memory-model.md): never a live memory, never recalled or searched.
 * `insert` carries the namespace, kind and content it would write; `update` and `delete` the memory and the version the
 * proposer saw, so approving after the memory changed is a conflict. Purge erases content, text and quote here too,
 * keeping `content_hash` so a rejected fact stays suppressed.
 */
export const memoryProposals = pgTable(
  "memory_proposals",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    /**
     * `instructions`: a new text of the user's instructions (docs/memory-model.md) in `text`, against
     * `expected_version`.
     */
    op: text("op", { enum: ["insert", "update", "delete", "instructions", "merge"] }).notNull(),
    memoryId: uuid("memory_id"),
    /** The memory's version the proposer saw (update, delete). */
    expectedVersion: integer("expected_version"),
    namespace: text("namespace").array().notNull(),
    kind: text("kind"),
    content: jsonb("content"),
    text: text("text"),
    contentHash: text("content_hash"),
    /** The dates the op gave the fact (an insert's, or a superseding update's `validFrom`). */
    validFrom: timestamp("valid_from", { withTimezone: true, precision: 3 }),
    validTo: timestamp("valid_to", { withTimezone: true, precision: 3 }),
    reason: text("reason"),
    sourceType: text("source_type").notNull(),
    threadId: text("thread_id"),
    messageId: text("message_id"),
    quote: text("quote"),
    runId: text("run_id"),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull(),
    /** The user's reason for rejecting it, when given. */
    decisionReason: text("decision_reason"),
    createdAt: createdAt(),
    decidedAt: timestamp("decided_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    index("memory_proposals_user_status_created_idx").on(t.userId, t.status, t.createdAt, t.id),
    index("memory_proposals_user_thread_idx").on(t.userId, t.threadId),
    check("memory_proposals_op_check", sql`${t.op} in ('insert', 'update', 'delete', 'instructions', 'merge')`),
    check("memory_proposals_status_check", sql`${t.status} in ('pending', 'approved', 'rejected')`),
  ],
);

/**
 * What the user forbids the models to remember ("never remember anything about my health"). Shown to the chat model
 * and the manager; a model's or an app's write whose words contain one of `terms` is not made.
 */
export const memoryRules = pgTable(
  "memory_rules",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    text: text("text").notNull(),
    terms: text("terms").array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] }), index("memory_rules_user_created_idx").on(t.userId, t.createdAt)],
);

/** Per-user settings; a user without a row has the defaults (review `deletes`). */
export const userSettings = pgTable(
  "user_settings",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    review: text("review", { enum: ["off", "deletes", "all"] })
      .notNull()
      .default("deletes"),
    updatedAt: updatedAt(),
  },
  (t) => [check("user_settings_review_check", sql`${t.review} in ('off', 'deletes', 'all')`)],
);

/**
 * A thumbs up or down on one assistant answer (docs/memory-model.md), with the instructions version the answer ran
 * with. `optimizer_run_id` is set once an optimizer pass has read it, so each piece of feedback is acted on once.
 */
export const answerFeedback = pgTable(
  "answer_feedback",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    messageId: text("message_id").notNull(),
    threadId: text("thread_id").notNull(),
    rating: text("rating", { enum: ["up", "down"] }).notNull(),
    comment: text("comment"),
    instructionsVersion: integer("instructions_version"),
    optimizerRunId: uuid("optimizer_run_id"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    index("answer_feedback_user_created_idx").on(t.userId, t.createdAt, t.id),
    foreignKey({ columns: [t.userId, t.messageId], foreignColumns: [messages.userId, messages.id] }).onDelete(
      "cascade",
    ),
    check("answer_feedback_rating_check", sql`${t.rating} in ('up', 'down')`),
  ],
);

/**
 * Every version of the user's standing instructions to the chat model; the highest version is current. A version
 * says who wrote it (the user by hand, or the optimizer with the feedback and run it acted on) and why.
 */
export const instructionVersions = pgTable(
  "instruction_versions",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    text: text("text").notNull(),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id").notNull(),
    reason: text("reason").notNull(),
    feedbackIds: uuid("feedback_ids").array().notNull().default(sql`'{}'::uuid[]`),
    runId: uuid("run_id"),
    proposalId: uuid("proposal_id"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.version] })],
);

/** One optimizer pass over new feedback: what it read, what it proposed, what happened to it, what it cost. */
export const optimizerRuns = pgTable(
  "optimizer_runs",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    status: text("status", { enum: ["running", "succeeded", "failed", "skipped"] }).notNull(),
    /** applied, proposed, unchanged or rejected (the answer failed validation; `rejected` says why). */
    outcome: text("outcome"),
    model: text("model"),
    feedbackIds: uuid("feedback_ids").array().notNull().default(sql`'{}'::uuid[]`),
    fromVersion: integer("from_version"),
    proposed: jsonb("proposed"),
    rejected: jsonb("rejected").$type<unknown[]>().notNull().default([]),
    proposalId: uuid("proposal_id"),
    appliedVersion: integer("applied_version"),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    error: text("error"),
    jobId: text("job_id"),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    index("optimizer_runs_user_created_idx").on(t.userId, t.createdAt),
    check("optimizer_runs_status_check", sql`${t.status} in ('running', 'succeeded', 'failed', 'skipped')`),
  ],
);

/**
 * One consolidation pass over a user's memories (docs/memory-model.md, "Consolidation"): the candidate groups it
 * showed the model (ids and versions only), the ops it proposed, applied and rejected with reasons, what it cost.
 * Holds no memory text, so purging a memory leaves nothing here to erase.
 */
export const consolidationRuns = pgTable(
  "consolidation_runs",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    trigger: text("trigger", { enum: ["manual", "after_extraction", "daily"] }).notNull(),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed", "skipped"] }).notNull(),
    model: text("model"),
    groups: jsonb("groups").$type<unknown[]>().notNull().default([]),
    /**
     * It showed the model every candidate group, pairs close in meaning included: none was left for a later run
     * (migration 0034).
     */
    complete: boolean("complete").notNull().default(false),
    opsProposed: jsonb("ops_proposed").$type<unknown[]>().notNull().default([]),
    opsApplied: jsonb("ops_applied").$type<unknown[]>().notNull().default([]),
    opsRejected: jsonb("ops_rejected").$type<unknown[]>().notNull().default([]),
    modelCalls: integer("model_calls").notNull().default(0),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    costUsd: numeric("cost_usd", { precision: 18, scale: 10, mode: "number" }),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    jobId: text("job_id"),
    revertedAt: timestamp("reverted_at", { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    index("consolidation_runs_user_created_idx").on(t.userId, t.createdAt, t.id),
    check(
      "consolidation_runs_status_check",
      sql`${t.status} in ('queued', 'running', 'succeeded', 'failed', 'skipped')`,
    ),
    check("consolidation_runs_trigger_check", sql`${t.trigger} in ('manual', 'after_extraction', 'daily')`),
  ],
);
