import type { PGlite, QueryOptions, Results, Transaction } from "@electric-sql/pglite";
import { parse, protocol } from "@electric-sql/pglite";

const { serialize } = protocol;
const { parseDescribeStatementResults, parseResults } = parse;

/** How many statements one PGlite keeps prepared; the least recently used is closed beyond this. */
const PGLITE_PREPARED_LIMIT = 256;

interface PgliteStatement {
  name: string;
  /** The parameter types PostgreSQL inferred, which choose each value's serializer. */
  types: number[];
}

/**
 * PGlite with every parameterised statement prepared once, the counterpart of preparingStatements
 * (./prepared-statements.ts). PGlite's own `query` sends every statement unnamed, so it is parsed again on every call
 * and a generic plan is never kept: a statement that is planned once per connection on PostgreSQL (a lexical search)
 * was planned on every call here, which took half of its time (docs/performance.md, "What keeps search fast").
 * Statements are still planned for their parameters unless the transaction says otherwise (plan_cache_mode, set where
 * PGlite is opened). Queries inside `transaction` prepare too. Statements without parameters and queries carrying a
 * blob keep PGlite's own path.
 */
export function preparingPgliteStatements(client: PGlite): PGlite {
  const prepared = new Map<string, PgliteStatement>();
  let named = 0;

  /** The statement's prepared form, preparing it first when this PGlite has not yet; inside the query lock. */
  async function statementFor(text: string, options?: QueryOptions): Promise<PgliteStatement> {
    const known = prepared.get(text);
    if (known) {
      prepared.delete(text);
      prepared.set(text, known);
      return known;
    }
    const name = `ml_${++named}`;
    const messages = await client.execProtocolStream(
      inOneExchange(
        serialize.parse({ name, text, types: options?.paramTypes }),
        serialize.describe({ type: "S", name }),
      ),
      NO_SYNC,
    );
    const statement = { name, types: parseDescribeStatementResults(messages) };
    prepared.set(text, statement);
    if (prepared.size > PGLITE_PREPARED_LIMIT) {
      const [oldest, evicted] = prepared.entries().next().value as [string, PgliteStatement];
      prepared.delete(oldest);
      await client.execProtocolStream(serialize.close({ type: "S", name: evicted.name }), NO_SYNC);
    }
    return statement;
  }

  /**
   * PGlite's extended-protocol exchange, with Parse and Describe only the first time: Bind, Describe, Execute and Sync
   * go as one message to PGlite, which reads them in turn (an error skips to the Sync, as on a server): each exchange
   * is a call into PGlite's WASM with work of its own (docs/performance.md). `inTransaction`: the commit syncs to disk
   * instead.
   */
  function run<T>(text: string, values: unknown[], options: QueryOptions | undefined, inTransaction: boolean) {
    return client.runExclusive(async () => {
      let bind: Uint8Array;
      try {
        const { name, types } = await statementFor(text, options);
        bind = serialize.bind({ statement: name, values: serializedValues(client, types, values, options) });
      } catch (error) {
        // A statement that did not parse, or a serializer that threw, still ends its exchange.
        await client.execProtocolStream(serialize.sync(), NO_SYNC);
        throw error;
      }
      const messages = await client.execProtocolStream(
        inOneExchange(bind, serialize.describe({ type: "P" }), serialize.execute({}), serialize.sync()),
        NO_SYNC,
      );
      if (!inTransaction) await client.syncToFs();
      return parseResults(messages, parsersOf(client, options), withoutParsers(options))[0] as Results<T>;
    });
  }

  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  const preparable = (values: unknown[] | undefined, options: QueryOptions | undefined): values is unknown[] =>
    values !== undefined && values.length > 0 && !options?.blob;

  Object.assign(client, {
    query: <T>(text: string, values?: unknown[], options?: QueryOptions): Promise<Results<T>> =>
      preparable(values, options)
        ? client._runExclusiveTransaction(() => run<T>(text, values, options, false))
        : query<T>(text, values, options),
    transaction: <T>(work: (tx: Transaction) => Promise<T>): Promise<T> =>
      transaction((tx) => {
        const preparing: Transaction = Object.create(tx);
        preparing.query = <R>(text: string, values?: unknown[], options?: QueryOptions): Promise<Results<R>> => {
          if (!preparable(values, options)) return tx.query<R>(text, values, options);
          if (tx.closed) throw new Error("Transaction is closed");
          return run<R>(text, values, options, true);
        };
        return work(preparing);
      }),
  });
  return client;
}

/**
 * Each value as text, by the serializer of the type PostgreSQL inferred for its parameter (the query's own, else
 * PGlite's).
 */
function serializedValues(client: PGlite, types: number[], values: unknown[], options: QueryOptions | undefined) {
  return values.map((value, index) => {
    if (value === null || value === undefined) return null;
    const type = types[index] as number;
    const serializer = options?.serializers?.[type] ?? client.serializers[type];
    return serializer ? serializer(value) : String(value);
  });
}

/**
 * The client's parsers under the query's own. Given both, parseResults copies all of the client's (over 300, one per
 * type and array type) into a new object on every call, as drizzle brings some with every statement: a tenth to a
 * quarter of a millisecond of the event loop per statement.
 */
function parsersOf(client: PGlite, options: QueryOptions | undefined): PGlite["parsers"] {
  return options?.parsers ? Object.assign(Object.create(client.parsers), options.parsers) : client.parsers;
}

function withoutParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers) return options;
  const { parsers: _, ...rest } = options;
  return rest;
}

const NO_SYNC = { syncToFs: false } as const;

/** Frontend messages as one buffer, which PGlite reads one after another. */
function inOneExchange(...messages: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(messages.reduce((length, message) => length + message.length, 0));
  let offset = 0;
  for (const message of messages) {
    joined.set(message, offset);
    offset += message.length;
  }
  return joined;
}
