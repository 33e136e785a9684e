import type { Sql } from "postgres";

type TransactionCallback = (client: Sql) => unknown;

/**
 * The postgres.js client with every parameterised statement prepared on its connection, drizzle's and raw ones alike.
 * postgres.js prepares tagged-template statements, but `unsafe` (which drizzle and the unit of work's raw statements
 * use) defaults to an unnamed statement that is described first: each run then costs two round trips, and a
 * thousand-row insert is parsed again every time. Prepared, a statement is parsed once per connection (connections
 * are recycled after postgres.js's max_lifetime, which bounds how many a connection keeps); it is still planned for
 * its parameters (plan_cache_mode, set where the client is opened). Statements without parameters keep the simple
 * protocol, so a batch of SET LOCALs is still one message. Transactions and savepoints hand out clients that prepare
 * too.
 */
export function preparingStatements(client: Sql): Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (text: string, parameters?: unknown, options?: Record<string, unknown>) =>
          Array.isArray(parameters)
            ? target.unsafe(text, parameters as never, { ...options, prepare: true })
            : target.unsafe(text, parameters as never);
      }
      if (property === "begin" || property === "savepoint") {
        const open = Reflect.get(target, property, receiver) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          const work = args.pop() as TransactionCallback;
          return open(...args, (transaction: Sql) => work(preparingStatements(transaction)));
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}
