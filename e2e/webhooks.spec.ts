import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { guestWithKey } from "./api-support";

/** A receiver on 127.0.0.1 (the e2e server runs with WEBHOOK_ALLOW_PRIVATE=true) that answers 500 until told not to. */
async function startReceiver() {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let status = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer: (next: number) => {
      status = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("the console adds a webhook with its secret shown once and shows signed deliveries in its log", async ({
  page,
}) => {
  const receiver = await startReceiver();
  try {
    const { key } = await guestWithKey(page);
    await page.goto("/settings/keys");
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL(/\/settings\/webhooks$/);

    await page.getByLabel("URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secret = (await page.getByTestId("new-webhook-secret").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^whsec_/);

    const written = await page.request.post("/api/v1/memories", {
      headers: { authorization: `Bearer ${key}` },
      data: { content: "Prefers aisle seats" },
    });
    expect(written.status()).toBe(201);
    await expect.poll(() => receiver.received.length).toBe(1);
    const [request] = receiver.received;
    const payload = new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>) as {
      type: string;
      data: { text: string };
    };
    expect(payload).toMatchObject({ type: "memory.created", data: { text: "Prefers aisle seats" } });

    await page.reload();
    const webhook = page.getByTestId("webhook").filter({ hasText: receiver.url });
    await expect(webhook.getByTestId("delivery-status")).toHaveText(["succeeded"]);
    await expect(page.getByTestId("new-webhook-secret")).toHaveCount(0);
    await expect(webhook).not.toContainText(secret);
    await page.screenshot({ path: "test-results/screens/webhooks.png", fullPage: true });

    await webhook.getByRole("button", { name: "Redeliver" }).click();
    await expect.poll(() => receiver.received.length).toBe(2);
    expect(receiver.received[1]?.headers["webhook-id"]).toBe(request?.headers["webhook-id"]);

    await webhook.getByRole("button", { name: "Disable" }).click();
    await expect(webhook.getByTestId("webhook-disabled-notice")).toContainText("Disabled by hand.");
    await webhook.getByRole("button", { name: "Enable" }).click();
    await expect(webhook.getByTestId("webhook-disabled-notice")).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});
