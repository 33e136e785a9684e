import { Client } from "@langchain/langgraph-sdk";
import { expect, test } from "@playwright/test";
import { guestWithKey } from "./api-support";

const clientFor = (origin: string, apiKey: string) =>
  new Client({ apiUrl: `${origin}/api/langgraph`, apiKey, callerOptions: { maxRetries: 0 } });

test("the LangGraph SDK client uses the store unmodified, and a second key sees none of it", async ({
  browser,
  baseURL,
}) => {
  const origin = baseURL as string;
  const ownerPage = await (await browser.newContext()).newPage();
  const owner = await guestWithKey(ownerPage);
  const client = clientFor(origin, owner.key);

  await client.store.putItem(["prefs", "editor"], "choice", { content: "I use Helix with a light theme" });
  await client.store.putItem(["projects"], "ledger", { name: "Memory Ledger", priority: 3 });
  await client.store.putItem(["projects"], "garden", { name: "Garden planner", priority: 1 });

  const item = await client.store.getItem(["projects"], "ledger");
  expect(item).toMatchObject({ namespace: ["projects"], key: "ledger", value: { name: "Memory Ledger", priority: 3 } });

  const filtered = await client.store.searchItems(["projects"], { filter: { priority: { $gt: 2 } } });
  expect(filtered.items.map((found) => found.key)).toEqual(["ledger"]);
  const queried = await client.store.searchItems([], { query: "what editor do I use?" });
  expect(queried.items[0]).toMatchObject({ key: "choice", score: expect.any(Number) });

  expect((await client.store.listNamespaces()).namespaces).toEqual([["prefs", "editor"], ["projects"]]);

  await client.store.deleteItem(["projects"], "garden");
  expect(await client.store.getItem(["projects"], "garden")).toBeNull();

  const listed = await ownerPage.request.get("/api/v1/memories?namespace=projects&status=all");
  const memories = ((await listed.json()) as { memories: { key: string; status: string; actor: { type: string } }[] })
    .memories;
  expect(memories.map(({ key, status, actor }) => [key, status, actor.type]).sort()).toEqual([
    ["garden", "deleted", "api"],
    ["ledger", "active", "api"],
  ]);

  const strangerPage = await (await browser.newContext()).newPage();
  const stranger = await guestWithKey(strangerPage);
  expect(stranger.userId).not.toBe(owner.userId);
  const other = clientFor(origin, stranger.key);
  expect(await other.store.getItem(["projects"], "ledger")).toBeNull();
  expect((await other.store.searchItems([])).items).toEqual([]);
  expect((await other.store.searchItems([], { query: "editor" })).items).toEqual([]);
  expect((await other.store.listNamespaces()).namespaces).toEqual([]);
  await other.store.deleteItem(["projects"], "ledger");
  expect(await client.store.getItem(["projects"], "ledger")).not.toBeNull();

  const bad = clientFor(origin, "ml_not-a-real-key");
  await expect(bad.store.listNamespaces()).rejects.toMatchObject({ status: 401 });
});
