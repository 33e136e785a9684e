import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { DEFAULT_DELIVERY } from "@/lib/memory/webhooks";
import { backoffDelayMs } from "@/lib/memory/webhooks/deliver";
import { generateWebhookSecret, signWebhook, webhookHeaders } from "@/lib/memory/webhooks/signing";
import { checkTargetUrl, isNonPublicAddress, resolveTarget } from "@/lib/memory/webhooks/targets";

describe("webhook targets", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "0:0:0:0:0:ffff:7f00:1",
    "::127.0.0.1",
    "::7f00:1",
    "::a9fe:a9fe",
    "::10.0.0.1",
    "0:0:0:0:0:0:c0a8:101",
    "::ffff:0:127.0.0.1",
    "::ffff:0:a9fe:a9fe",
    "64:ff9b::7f00:1",
  ])("%s is not public", (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(["93.184.215.14", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "::8.8.8.8"])(
    "%s is public",
    (address) => {
      expect(isNonPublicAddress(address)).toBe(false);
    },
  );

  it.each([
    ["http://127.0.0.1/hook", /https only/],
    ["https://127.0.0.1/hook", /private, loopback/],
    ["https://[::1]:8443/hook", /private, loopback/],
    ["https://[::ffff:127.0.0.1]/hook", /private, loopback/],
    ["https://[::127.0.0.1]/hook", /private, loopback/],
    ["https://localhost/hook", /private, loopback/],
    ["https://api.localhost/hook", /private, loopback/],
    ["https://printer.local/hook", /private, loopback/],
    ["https://169.254.169.254/latest/meta-data", /private, loopback/],
    ["https://10.0.0.7/hook", /private, loopback/],
    ["https://user:pass@example.com/hook", /credentials/],
    ["ftp://example.com/hook", /https only/],
    ["not a url", /not a URL/],
  ])("refuses %s when private targets are not allowed", (url, message) => {
    expect(() => checkTargetUrl(url, { allowPrivate: false })).toThrow(message);
  });

  it("accepts public https targets, and loopback over http only where private targets are allowed", () => {
    expect(checkTargetUrl("https://hooks.example.com/in?x=1", { allowPrivate: false }).toString()).toBe(
      "https://hooks.example.com/in?x=1",
    );
    expect(checkTargetUrl("http://127.0.0.1:9999/hook", { allowPrivate: true }).port).toBe("9999");
  });

  it("refuses a name that resolves to any non-public address, unless allowed", async () => {
    const lookup = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ];
    await expect(resolveTarget("hooks.example.com", { allowPrivate: false }, lookup)).rejects.toThrow(
      /non-public address/,
    );
    await expect(resolveTarget("hooks.example.com", { allowPrivate: true }, lookup)).resolves.toEqual({
      address: "93.184.215.14",
      family: 4,
    });
  });
});

describe("webhook signatures", () => {
  it("match the Standard Webhooks reference library, which verifies them", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const at = new Date("2026-12-01T12:00:00.000Z");
    const body = JSON.stringify({ type: "memory.created", timestamp: at.toISOString(), data: { id: "x" } });
    const library = new Webhook(secret);
    expect(signWebhook(secret, "msg_1", Math.floor(at.getTime() / 1000), body)).toBe(library.sign("msg_1", at, body));
    const now = new Date();
    expect(library.verify(body, webhookHeaders(secret, "msg_2", now, body))).toEqual(JSON.parse(body));
    expect(() => library.verify(`${body} `, webhookHeaders(secret, "msg_2", now, body))).toThrow();
  });

  it("back off exponentially up to the cap", () => {
    expect(
      [1, 2, 3, 4].map((attempt) => backoffDelayMs({ baseDelayMs: 100, backoffFactor: 2, maxDelayMs: 500 }, attempt)),
    ).toEqual([100, 200, 400, 500]);
    expect(backoffDelayMs(DEFAULT_DELIVERY, 1)).toBe(30_000);
    expect(backoffDelayMs(DEFAULT_DELIVERY, 7)).toBe(6 * 3_600_000);
  });
});
