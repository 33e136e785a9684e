import { unstable_doesMiddlewareMatch as runsFor } from "next/experimental/testing/server";
import { describe, expect, it } from "vitest";
import { config } from "@/proxy";

// Its own file: Next's testing helper loads request storage that the page-gate tests must import fresh.
describe("where the proxy runs", () => {
  const at = (path: string) => runsFor({ config, url: `http://localhost:3000${path}` });

  it("runs for pages and for API paths holding a percent sign (the undecodable-path check)", () => {
    for (const path of [
      "/",
      "/memories",
      "/chat/abc",
      "/memories/%E0%A4%A",
      "/api/v1/memories/%FF",
      "/api/auth/%C0%AF",
    ])
      expect(at(path), path).toBe(true);
  });

  it("does not run for other API requests or static assets", () => {
    for (const path of [
      "/api/v1/me",
      "/api/v1/memories/search",
      "/api/auth/session",
      "/_next/static/x.js",
      "/favicon.ico",
    ])
      expect(at(path), path).toBe(false);
  });
});
