import { sql } from "drizzle-orm";
import { type Database, type Db, inTransaction } from "./client";

/** The unprivileged role row-level security policies apply to (created by migration 0010). */
const APP_ROLE = "memory_ledger_app";

/** The handle a drizzle transaction callback receives. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Transaction handles already bound, and to whom: nested calls for the same user reuse the binding. */
const bindings = new WeakMap<object, string>();

/**
 * Runs `work` in a transaction bound to one user: `app.user_id` is set and, where the role exists and this login may
 * assume it, the transaction switches to the role the row-level security policies restrict. Both are SET LOCAL, so
 * they end with the transaction and never leak to the next user of a pooled connection.
 */
export async function asUser<T>(db: Db, userId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (bindings.get(db) === userId) return work(db as Tx);
  return db.transaction(async (tx) => {
    await bind(tx, userId);
    return work(tx);
  });
}

/**
 * asUser for code written against a Database (the memory core, raw `rows` queries). `settings` are further
 * transaction-local parameters, set in the same statement as the binding.
 */
export async function asUserDatabase<T>(
  database: Database,
  userId: string,
  work: (tx: Database) => Promise<T>,
  settings: Readonly<Record<string, string>> = {},
): Promise<T> {
  if (bindings.get(database.db) === userId) {
    if (Object.keys(settings).length > 0) await database.db.execute(sql`select ${localSettings(settings)}`);
    return work(database);
  }
  return inTransaction(database, async (tx) => {
    await bind(tx.db, userId, settings);
    return work(tx);
  });
}

async function bind(tx: Db, userId: string, settings: Readonly<Record<string, string>> = {}): Promise<void> {
  await tx.execute(sql`
    select ${localSettings({ ...settings, "app.user_id": userId })},
           case when exists (select 1 from pg_roles where rolname = ${APP_ROLE})
                 and pg_has_role(current_user, ${APP_ROLE}, 'MEMBER')
                then set_config('role', ${APP_ROLE}, true) end`);
  bindings.set(tx, userId);
}

const localSettings = (settings: Readonly<Record<string, string>>) =>
  sql.join(
    Object.entries(settings).map(([name, value]) => sql`set_config(${name}, ${value}, true)`),
    sql`, `,
  );
