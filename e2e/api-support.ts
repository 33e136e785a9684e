import { expect, type Page } from "@playwright/test";

/** A fresh guest session (the page gate creates one) that issues API keys the way the console does. */
export async function guestWithKey(page: Page, scopes: ("read" | "write")[] = ["read", "write"]) {
  await page.goto("/");
  const me = await page.request.get("/api/v1/me");
  expect(me.ok()).toBe(true);
  const { userId } = (await me.json()) as { userId: string };
  const response = await page.request.post("/api/v1/keys", { data: { name: "e2e", scopes } });
  expect(response.status()).toBe(201);
  const { id, key } = (await response.json()) as { id: string; key: string };
  return { userId, keyId: id, key };
}
