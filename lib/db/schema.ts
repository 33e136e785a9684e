import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
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
    status: text("status", { enum: ["active", "deleted"] }).notNull(),
    version: integer("version").notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    sourceType: text("source_type").notNull(),
    threadId: text("thread_id"),
    messageId: text("message_id"),
    quote: text("quote"),
    runId: text("run_id"),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id").notNull(),
    purgedAt: timestamp("purged_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    fts: tsvector("fts").generatedAlwaysAs(sql`to_tsvector('english'::regconfig, coalesce("text", ''))`),
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
    check("memories_status_check", sql`${t.status} in ('active', 'deleted')`),
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
    status: text("status", { enum: ["active", "deleted"] }).notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id").notNull(),
    reason: text("reason"),
    sourceType: text("source_type").notNull(),
    threadId: text("thread_id"),
    messageId: text("message_id"),
    quote: text("quote"),
    runId: text("run_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.memoryId, t.version] }),
    foreignKey({ columns: [t.userId, t.memoryId], foreignColumns: [memories.userId, memories.id] }).onDelete("cascade"),
    index("memory_versions_user_thread_idx").on(t.userId, t.threadId),
    check("memory_versions_op_check", sql`${t.op} in ('create', 'update', 'delete', 'restore', 'purge')`),
    check("memory_versions_status_check", sql`${t.status} in ('active', 'deleted')`),
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
    status: text("status", { enum: ["queued", "running", "succeeded", "failed"] }).notNull(),
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
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    index("extraction_runs_user_thread_idx").on(t.userId, t.threadId, t.createdAt),
    index("extraction_runs_user_created_idx").on(t.userId, t.createdAt),
    check("extraction_runs_status_check", sql`${t.status} in ('queued', 'running', 'succeeded', 'failed')`),
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
