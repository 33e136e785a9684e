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

/**
 * This browser's cookie no longer stands for `userId`: the API answers 401, or, when one of the browser's page
 * requests reached the proxy after the sign-out, speaks for a new guest (every visitor without a session becomes one).
 */
export async function expectNoLongerSignedInAs(page: Page, userId: string) {
  const me = await page.request.get("/api/v1/me");
  if (me.status() === 200) expect(((await me.json()) as { userId: string }).userId).not.toBe(userId);
  else expect(me.status()).toBe(401);
}
