import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/lib/db/client";
import { apiKeys, auditLog, users } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";
import { processState } from "@/lib/process-state";
import { namespaceRoot, type Principal } from "./principal";

export const API_KEY_SCOPES = ["read", "write"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

const KEY_PREFIX = "ml_";
/** 32 random bytes as base64url: 43 characters, 256 bits, so a plain sha256 is a safe stored form. */
const KEY_PATTERN = /^ml_[A-Za-z0-9_-]{43}$/;
/** Enough of the key to recognise it in a list without weakening it. */
const DISPLAY_PREFIX_LENGTH = 12;
/** last_used_at and the audit row are written at most this often per key. */
export const KEY_USE_RECORD_INTERVAL_MS = 60_000;

export const createApiKeyInput = z.strictObject({
  name: z.string().trim().min(1, "Give the key a name.").max(100, "Keep the name under 100 characters."),
  scopes: z
    .array(z.enum(API_KEY_SCOPES))
    .min(1, "Choose at least one scope.")
    .refine((scopes) => new Set(scopes).size === scopes.length, "List each scope once."),
  expiresAt: z.iso
    .datetime({ offset: true })
    .refine((value) => Date.parse(value) > Date.now(), "The expiry must be in the future.")
    .optional(),
});
export type CreateApiKeyInput = z.input<typeof createApiKeyInput>;

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export const hashApiKey = (key: string): string => createHash("sha256").update(key).digest("hex");

/** Issues a key for `userId`; the returned secret is never stored and cannot be shown again. */
export async function createApiKey(
  owner: UserBinding,
  raw: CreateApiKeyInput,
): Promise<{ id: string; key: string; summary: ApiKeySummary }> {
  const input = createApiKeyInput.parse(raw);
  const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const [row] = await asUser(owner, ({ db }) =>
    db
      .insert(apiKeys)
      .values({
        userId: owner.principal.userId,
        name: input.name,
        prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
        keyHash: hashApiKey(key),
        scopes: input.scopes,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      })
      .returning(),
  );
  if (!row) throw new Error("The API key was not stored.");
  return { id: row.id, key, summary: toSummary(row) };
}

/** The owner's keys, newest first, revoked ones included (their history stays visible). */
export async function listApiKeys(owner: UserBinding): Promise<ApiKeySummary[]> {
  const rows = await asUser(owner, ({ db }) =>
    db.select().from(apiKeys).where(eq(apiKeys.userId, owner.principal.userId)).orderBy(desc(apiKeys.createdAt)),
  );
  return rows.map(toSummary);
}

/** Revokes one of the owner's keys (idempotent); null when the id is not theirs or not a key id at all. */
export async function revokeApiKey(owner: UserBinding, id: string, now = new Date()): Promise<ApiKeySummary | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const userId = owner.principal.userId;
  return asUser(owner, async (unit) => {
    const db = unit.db;
    const [existing] = await db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), eq(apiKeys.id, id)));
    if (!existing) return null;
    if (existing.revokedAt) return toSummary(existing);
    const [row] = await db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.userId, userId), eq(apiKeys.id, id)))
      .returning();
    // Once the revocation is visible to everyone: forgotten earlier, a racing request could cache the old row.
    unit.afterCommit(() => forget(id));
    return row ? toSummary(row) : null;
  });
}

export interface AuthenticatedKey {
  id: string;
  scopes: ApiKeyScope[];
  principal: Principal;
}

export type KeyAuthentication =
  | { ok: true; key: AuthenticatedKey }
  | { ok: false; reason: "malformed" | "unknown" | "revoked" | "expired" };

/**
 * Resolves a presented key to its owner. Unbound: nobody is known until the key is. The principal a key yields is
 * always a plain user rooted at the owner's namespace: a key never carries its owner's admin role.
 */
export async function authenticateApiKey(
  database: Database,
  presented: string,
  now = new Date(),
): Promise<KeyAuthentication> {
  if (!KEY_PATTERN.test(presented)) return { ok: false, reason: "malformed" };
  const hash = hashApiKey(presented);
  const cached = lookedUp.get(hash);
  let row = cached && now.getTime() - cached.at < KEY_LOOKUP_TTL_MS ? cached.row : undefined;
  if (!row) {
    [row] = await database.unbound.db
      .select({ key: apiKeys, user: { email: users.email, name: users.name, isGuest: users.isGuest } })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(eq(apiKeys.keyHash, hash));
    if (row) remember(hash, row, now.getTime());
  }
  if (!row) return { ok: false, reason: "unknown" };
  if (row.key.revokedAt) return { ok: false, reason: "revoked" };
  if (row.key.expiresAt && row.key.expiresAt <= now) return { ok: false, reason: "expired" };
  return {
    ok: true,
    key: {
      id: row.key.id,
      scopes: row.key.scopes.filter(isScope),
      principal: {
        userId: row.key.userId,
        role: "user",
        root: namespaceRoot(row.key.userId),
        isGuest: row.user.isGuest,
        email: row.user.email,
        name: row.user.name,
      },
    },
  };
}

/**
 * How long this process trusts a key row it read: a busy key costs no lookup per request. Revoking a key forgets it
 * here at once; other web processes stop accepting it within this long. Expiry is checked against the clock on every
 * request.
 */
export const KEY_LOOKUP_TTL_MS = 5_000;

type KeyRow = {
  key: typeof apiKeys.$inferSelect;
  user: { email: string | null; name: string | null; isGuest: boolean };
};
const lookedUp = processState("api-key-rows", () => new Map<string, { row: KeyRow; at: number }>());

function remember(hash: string, row: KeyRow, at: number) {
  lookedUp.set(hash, { row, at });
  if (lookedUp.size > 10_000) {
    for (const [stale, entry] of lookedUp) if (at - entry.at >= KEY_LOOKUP_TTL_MS) lookedUp.delete(stale);
  }
}

/** Forgets every key row of a deleted account this process read, so none of its keys is accepted from the cache. */
export function forgetUserKeys(userId: string) {
  for (const [hash, entry] of lookedUp) if (entry.row.key.userId === userId) lookedUp.delete(hash);
}

function forget(keyId: string) {
  for (const [hash, entry] of lookedUp) if (entry.row.key.id === keyId) lookedUp.delete(hash);
}

/** When this process last asked the database to stamp each key: within the interval it need not ask again. */
const checkedHere = processState("api-key-use-checks", () => new Map<string, number>());

/**
 * Stamps last_used_at and appends an audit row, at most once per KEY_USE_RECORD_INTERVAL_MS per key: the conditional
 * UPDATE decides, so concurrent requests (and processes) record one use between them. Each process asks at most once
 * per interval per key, so the request path of a busy key costs no write.
 */
export async function recordKeyUse(
  database: Database,
  key: Pick<AuthenticatedKey, "id" | "principal">,
  target: string,
  now = new Date(),
): Promise<boolean> {
  const checked = checkedHere.get(key.id);
  if (checked !== undefined && now.getTime() - checked < KEY_USE_RECORD_INTERVAL_MS) return false;
  checkedHere.set(key.id, now.getTime());
  if (checkedHere.size > 10_000) {
    for (const [id, at] of checkedHere) if (now.getTime() - at >= KEY_USE_RECORD_INTERVAL_MS) checkedHere.delete(id);
  }
  const userId = key.principal.userId;
  const threshold = new Date(now.getTime() - KEY_USE_RECORD_INTERVAL_MS);
  return asUser({ database, principal: key.principal }, async ({ db }) => {
    const stamped = await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiKeys.userId, userId),
          eq(apiKeys.id, key.id),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, threshold)),
        ),
      )
      .returning({ id: apiKeys.id });
    if (stamped.length === 0) return false;
    await db.insert(auditLog).values({
      userId,
      actorType: "api_key",
      actorId: key.id,
      action: "api_key.use",
      target,
      createdAt: now,
    });
    return true;
  });
}

const isScope = (value: string): value is ApiKeyScope => (API_KEY_SCOPES as readonly string[]).includes(value);

function toSummary(row: typeof apiKeys.$inferSelect): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes.filter(isScope),
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
  };
}
