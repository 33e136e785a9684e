import { AsyncLocalStorage } from "node:async_hooks";
import type { SQL } from "drizzle-orm";
import { logFailure } from "@/lib/log";
import { APP_ROLE } from "./app-role";
import { type Database, type Db, resultRows } from "./client";

/** The advisory-lock class of "this user's memory writer" (the second key is the user's hash). */
const WRITER_LOCK = 0x6d656d77;

export type AfterCommitHook = () => unknown;

/**
 * One transaction bound to one user: `app.user_id` is set and, where the role exists and this login may assume it,
 * the transaction runs as the role the row-level security policies restrict. Both are SET LOCAL, so they end with
 * the transaction and never reach the next user of a pooled connection.
 */
export interface UnitOfWork {
  readonly userId: string;
  /** The drizzle builder, inside the transaction. */
  readonly db: Db;
  /** Raw statements, inside the transaction. */
  rows<T>(query: SQL): Promise<T[]>;
  /**
   * A statement given as text with positional parameters, inside the transaction: for statements too large for the
   * builder to assemble quickly (multi-row inserts, lib/db/bulk.ts).
   */
  query<T>(text: string, parameters: readonly unknown[]): Promise<T[]>;
  /** Sets transaction-local parameters (SET LOCAL, which Citus forwards to the shards). */
  setLocal(settings: Readonly<Record<string, string>>): Promise<void>;
  /** Runs `hook` once the transaction has committed (never if it rolls back); a failing hook is logged. */
  afterCommit(hook: AfterCommitHook): void;
  /**
   * Makes this unit the user's only writer of memories until it ends (a transaction-scoped advisory lock, taken
   * once). Every memory write takes it before touching a row: the per-user statistics rows the writes' triggers
   * keep would otherwise let two multi-statement writers lock them in opposite orders and deadlock. On PGlite the
   * unit's later statements are planned once per connection (takeWriterLock).
   */
  serializeUserWrites(): Promise<void>;
}

/** What work bound to a user needs: the database, whose rows, and the unit already open for them, if any. */
export interface UserBinding {
  readonly database: Database;
  readonly principal: { readonly userId: string };
  readonly unit?: UnitOfWork;
}

/** The unit open in the current async call chain, per database: a second one opened inside it is a bug. */
const open = new AsyncLocalStorage<{ database: Database; unit: UnitOfWork }>();

/**
 * The one way to run work as a user. Inside a unit already carried by `binding` for the same user, `work` joins it;
 * for another user it refuses, as it does when a unit is open in this call chain but was not passed along (on
 * PGlite's single connection that second transaction would wait forever). `settings` are further transaction-local
 * parameters, set in the binding statement.
 */
export async function asUser<T>(
  binding: UserBinding,
  work: (unit: UnitOfWork) => Promise<T>,
  settings: Readonly<Record<string, string>> = {},
): Promise<T> {
  const { database, unit } = binding;
  const userId = binding.principal.userId;
  if (unit) {
    if (unit.userId !== userId) {
      throw new Error(`Refusing to run work for user ${userId} inside a unit of work bound to ${unit.userId}.`);
    }
    if (Object.keys(settings).length > 0) await unit.setLocal(settings);
    return work(unit);
  }
  const enclosing = open.getStore();
  if (enclosing?.database === database) {
    throw new Error("A unit of work is already open here: pass its context along instead of opening another.");
  }
  const hooks: AfterCommitHook[] = [];
  const result = await database.unbound.db.transaction(async (tx) => {
    let serialized: Promise<unknown> | undefined;
    const bound: UnitOfWork = {
      userId,
      db: tx as unknown as Db,
      rows: async <R>(query: SQL) => resultRows<R>(await tx.execute(query)),
      query: driverQuery(tx),
      setLocal: (settings) => setLocal(driverScript(tx), settings),
      afterCommit: (hook) => {
        hooks.push(hook);
      },
      serializeUserWrites: async () => {
        serialized ??= takeWriterLock(tx, database, userId);
        await serialized;
      },
    };
    const role: Record<string, string> = database.appRole ? { role: APP_ROLE } : {};
    await setLocal(driverScript(tx), { ...settings, "app.user_id": userId, ...role });
    return open.run({ database, unit: bound }, () => work(bound));
  });
  for (const hook of hooks) {
    try {
      await hook();
    } catch (error) {
      logFailure("work after a commit failed", error, "warn");
    }
  }
  return result;
}

/**
 * The user's writer lock, one simple-protocol message. On PGlite that message also has the unit's later statements
 * planned once per connection, until a search (lib/memory/search/search.ts) or a bulk insert in it sets per-call
 * planning back; what follows a bulk insert, its statistics by the new rows' ids, is meant to be planned per call
 * (lib/memory/store/bulk-statistics.ts).
 * The planner runs on the server's own thread there. A write's statements look rows up by the user and their ids or
 * keys, and the statistics trigger's upserts, which PL/pgSQL plans under the same setting, by the user and a word; the
 * reads of a user's whole set that run under the lock were checked for a worse generic plan (docs/performance.md).
 */
function takeWriterLock(tx: unknown, database: Database, userId: string) {
  const planning = database.kind === "pglite" ? setLocalStatements({ plan_cache_mode: "force_generic_plan" }) : [];
  const lock = `select pg_advisory_xact_lock(${WRITER_LOCK}, hashtext(${literal(userId)}))`;
  return driverScript(tx)([...planning, lock].join("; "));
}

/** The driver's client of the transaction drizzle opened. */
function driverClient(tx: unknown): DriverClient {
  return (tx as { session: { client: DriverClient } }).session.client;
}

/** The driver's own query call for the transaction drizzle opened: postgres.js `unsafe`, PGlite `query`. */
function driverQuery(tx: unknown): UnitOfWork["query"] {
  const client = driverClient(tx);
  return async <R>(text: string, parameters: readonly unknown[]) => {
    if ("unsafe" in client) return [...(await client.unsafe(text, [...parameters]))] as R[];
    return (await client.query(text, [...parameters])).rows as R[];
  };
}

type DriverClient =
  | { unsafe(text: string, parameters: unknown[]): Promise<Iterable<unknown>> }
  | {
      query(text: string, parameters: unknown[]): Promise<{ rows: unknown[] }>;
      exec(script: string): Promise<unknown>;
    };

/**
 * Several statements in one message for the transaction drizzle opened: postgres.js `unsafe` with no parameters (the
 * simple protocol), PGlite `exec`.
 */
function driverScript(tx: unknown): (script: string) => Promise<unknown> {
  const client = driverClient(tx);
  return "unsafe" in client ? (script) => client.unsafe(script, []) : (script) => client.exec(script);
}

/**
 * Sets transaction-local parameters with SET LOCAL, the form Citus forwards to the shards' connections (set_config is
 * not forwarded, so row-level security on the workers would see no user). PostgreSQL takes them as one simple-protocol
 * message, one round trip, and so does PGlite's `exec`, where its `query` takes one statement at a time (each a third
 * of a millisecond of the event loop, two or three times per unit of work).
 */
async function setLocal(script: (text: string) => Promise<unknown>, settings: Readonly<Record<string, string>>) {
  await script(setLocalStatements(settings).join("; "));
}

function setLocalStatements(settings: Readonly<Record<string, string>>): string[] {
  return Object.entries(settings).map(([name, value]) => {
    if (!PARAMETER_NAME.test(name)) throw new Error(`Not a parameter name: ${name}`);
    return `set local ${name} = ${literal(value)}`;
  });
}

/** A string literal for a statement sent as text (the simple protocol takes no parameters). */
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

const PARAMETER_NAME = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;
