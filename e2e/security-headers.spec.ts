import { expect, type Page, test } from "@playwright/test";

const EVIL = "https://evil.example";

/** Records CSP violations (init scripts run outside the page's CSP) and console errors on every page. */
async function watch(page: Page) {
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      ),
    );
  });
  return consoleErrors;
}

function nonceOf(policy: string | null) {
  return policy?.match(/'nonce-([^']+)'/)?.[1];
}

test("pages carry a nonce-based CSP and the other security headers, and run under it without violations", async ({
  page,
}) => {
  const consoleErrors = await watch(page);
  await page.goto("/");
  await page.getByLabel("Message").fill("Remember that I prefer green tea");
  await page.getByLabel("Message").press("Enter");
  await expect(page.getByTestId("memory-chip")).toHaveText("Saved: User prefers green tea");
  const threadId = page.url().split("/chat/")[1]!;
  const memoryId = (await page.getByTestId("memory-chip").getAttribute("href"))!.split("/memories/")[1]!;

  const pages = [
    "/",
    `/chat/${threadId}`,
    "/memories",
    `/memories/${memoryId}`,
    "/memories/runs",
    "/memories/access-log",
    "/memories/transfer",
    "/settings/keys",
    "/docs/api",
    "/login",
    "/register",
  ];
  for (const path of pages) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    const headers = response!.headers();
    const policy = headers["content-security-policy"] ?? null;
    expect(policy, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'(;|$)/);
    for (const directive of ["object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'", "form-action 'self'"]) {
      expect(policy, path).toContain(directive);
    }
    expect(policy, path).not.toContain("unsafe-eval");
    expect(headers["x-frame-options"], path).toBe("DENY");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"], path).toContain("camera=()");

    // Every script Next.js rendered carries this response's nonce (the browser hides the attribute's value).
    const nonce = nonceOf(policy);
    const scripts = await page
      .locator("script")
      .evaluateAll((elements) => elements.map((element) => (element as HTMLScriptElement).nonce));
    expect(scripts.length, path).toBeGreaterThan(0);
    expect(new Set(scripts), path).toEqual(new Set([nonce]));
    // Hydrated: React attached its handlers, which needs the scripts to have run.
    await expect
      .poll(() => page.evaluate(() => Object.keys(document.body).some((key) => key.startsWith("__react"))), {
        message: path,
      })
      .toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
  }

  // The API reference is usable: its anchors and links render.
  await page.goto("/docs/api");
  await expect(page.getByRole("link", { name: "/api/v1/openapi.json" })).toBeVisible();

  expect(consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
  expect(consoleErrors.filter((text) => text.startsWith("pageerror"))).toEqual([]);
});

test("each page response gets its own nonce; API responses and redirects carry the headers too", async ({
  page,
  playwright,
}) => {
  await page.goto("/memories");
  const first = nonceOf((await page.request.get("/memories")).headers()["content-security-policy"] ?? null);
  const second = nonceOf((await page.request.get("/memories")).headers()["content-security-policy"] ?? null);
  expect(first).toBeTruthy();
  expect(second).toBeTruthy();
  expect(first).not.toBe(second);

  for (const response of [
    await page.request.get("/api/health"),
    await page.request.get("/api/v1/me"),
    await page.request.get("/api/v1/openapi.json"),
    await page.request.post("/api/v1/memories", { data: { content: 42 } }),
  ]) {
    const headers = response.headers();
    expect(headers["content-security-policy"], response.url()).toContain("default-src 'none'");
    expect(headers["content-security-policy"], response.url()).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"], response.url()).toBe("DENY");
    expect(headers["x-content-type-options"], response.url()).toBe("nosniff");
    expect(headers["referrer-policy"], response.url()).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"], response.url()).toBeTruthy();
  }

  const visitor = await playwright.request.newContext({ baseURL: page.url() });
  const redirect = await visitor.get("/memories", { maxRedirects: 0 });
  expect(redirect.status()).toBe(307);
  expect(redirect.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(redirect.headers()["x-frame-options"]).toBe("DENY");
  await visitor.dispose();
});

test("cookie-authenticated writes from another origin are refused; the app's own pages and API keys still write", async ({
  page,
}) => {
  await page.goto("/memories");
  const count = async () =>
    ((await (await page.request.get("/api/v1/memories?status=all")).json()) as { memories: unknown[] }).memories.length;

  const forged = await page.request.post("/api/v1/memories", {
    data: { content: "Forged from another site" },
    headers: { origin: EVIL },
  });
  expect(forged.status()).toBe(403);
  expect((await forged.json()).error.code).toBe("forbidden");
  const forgedChat = await page.request.post("/api/chat", {
    data: {
      id: "forged",
      trigger: "submit-message",
      message: { id: "f1", role: "user", parts: [{ type: "text", text: "Remember that I like forged things" }] },
    },
    headers: { "sec-fetch-site": "cross-site" },
  });
  expect(forgedChat.status()).toBe(403);
  expect(await count()).toBe(0);

  // A write from the app's own page: the browser sends its Origin, which matches.
  const status = await page.evaluate(async () => {
    const response = await fetch("/api/v1/memories", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "Written from the console page" }),
    });
    return response.status;
  });
  expect(status).toBe(201);

  const created = await page.request.post("/api/v1/keys", { data: { name: "script", scopes: ["read", "write"] } });
  const { key } = (await created.json()) as { key: string };
  const withKey = await page.request.post("/api/v1/memories", {
    data: { content: "Written by a script with a key" },
    headers: { origin: EVIL, authorization: `Bearer ${key}` },
  });
  expect(withKey.status()).toBe(201);
  expect(await count()).toBe(2);

  // Server actions get Next.js's own check: a foreign Origin is refused before any action is looked up or run.
  const action = (origin: string) =>
    page.request.post("/memories", {
      headers: { origin, "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8" },
      data: "[]",
    });
  expect((await action(EVIL)).status()).toBe(500);
  expect((await action(new URL(page.url()).origin)).status()).not.toBe(500);
  expect(await count()).toBe(2);
});
