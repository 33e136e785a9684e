import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
} from "@langchain/langgraph-checkpoint";
import type { z } from "zod";
import type {
  deleteItemBody,
  itemResponse,
  listNamespacesBody,
  listNamespacesResponse,
  putItemBody,
  searchItemsBody,
  searchItemsResponse,
} from "@/lib/langgraph/requests";
import type { MemoryClient } from "./client";

type WireItem = z.output<typeof itemResponse>;
const STORE = "/api/langgraph/store";
const asKey = { keyHeader: "x-api-key" } as const;

/**
 * A LangGraph.js store over Memory Ledger's LangGraph store API (/api/langgraph/store): every item is a versioned
 * memory of the key owner, also seen by the console, REST and search. Pass it as `store` to a graph or
 * `createReactAgent`. A value `{ content: "…" }` is an ordinary memory; any other object is kept as a document.
 */
export class MemoryLedgerStore extends BaseStore {
  constructor(private readonly client: MemoryClient) {
    super();
  }

  /** Runs the operations in order, one request each, so a get after a put in one batch reads the put. */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const operation of operations) results.push(await this.#run(operation));
    return results as OperationResults<Op>;
  }

  #run(operation: Operation): Promise<unknown> {
    if ("namespacePrefix" in operation) return this.#search(operation);
    if ("value" in operation) return this.#put(operation);
    if ("key" in operation) return this.#get(operation);
    return this.#listNamespaces(operation);
  }

  async #get({ namespace, key }: GetOperation): Promise<Item | null> {
    const item = await this.client.request<WireItem | null>("GET", `${STORE}/items`, {
      ...asKey,
      query: { namespace: namespace.join("."), key },
    });
    return item ? toItem(item) : null;
  }

  async #put({ namespace, key, value, index }: PutOperation): Promise<void> {
    if (value === null) {
      const body: z.input<typeof deleteItemBody> = { namespace, key };
      await this.client.request("DELETE", `${STORE}/items`, { ...asKey, body });
      return;
    }
    const body: z.input<typeof putItemBody> = { namespace, key, value, ...(index === undefined ? {} : { index }) };
    await this.client.request("PUT", `${STORE}/items`, { ...asKey, body });
  }

  async #search({ namespacePrefix, filter, limit, offset, query }: SearchOperation): Promise<SearchItem[]> {
    const body: z.input<typeof searchItemsBody> = {
      namespace_prefix: namespacePrefix,
      filter: filter ?? null,
      limit: limit ?? 10,
      offset: offset ?? 0,
      query: query ?? null,
    };
    const found = await this.client.request<z.output<typeof searchItemsResponse>>("POST", `${STORE}/items/search`, {
      ...asKey,
      body,
    });
    return found.items.map(({ score, ...item }) => ({ ...toItem(item), ...(score === null ? {} : { score }) }));
  }

  async #listNamespaces({ matchConditions, maxDepth, limit, offset }: ListNamespacesOperation): Promise<string[][]> {
    const condition = (type: "prefix" | "suffix") =>
      matchConditions?.find((match) => match.matchType === type)?.path ?? null;
    const body: z.input<typeof listNamespacesBody> = {
      prefix: condition("prefix"),
      suffix: condition("suffix"),
      max_depth: maxDepth ?? null,
      limit,
      offset,
    };
    const listed = await this.client.request<z.output<typeof listNamespacesResponse>>("POST", `${STORE}/namespaces`, {
      ...asKey,
      body,
    });
    return listed.namespaces;
  }
}

const toItem = (item: WireItem): Item => ({
  namespace: item.namespace,
  key: item.key,
  value: item.value,
  createdAt: new Date(item.created_at),
  updatedAt: new Date(item.updated_at),
});
