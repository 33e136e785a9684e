import type { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import type { Principal } from "@/lib/auth/principal";
import type { Database } from "@/lib/db/client";
import type { ExtractionJobData } from "@/lib/memory/queue";

/** How a row's caller authenticates: a session cookie, or an API key with no session at all. */
export type Auth = "session" | "key";

/**
 * What the isolation suite's mocks and surface drivers read: the database `getDatabase()` returns, the session
 * `currentPrincipal()` returns (null when the request authenticates by API key only), the key requests send, the MCP
 * clients, and what routes enqueued or handed to `after()`.
 */
export const harness = {
  database: undefined as Database | undefined,
  principal: null as Principal | null,
  auth: "session" as Auth,
  apiKey: null as string | null,
  mcp: { session: null as McpClient | null, key: null as McpClient | null },
  enqueued: [] as ExtractionJobData[],
  pending: [] as Promise<unknown>[],
};

export function testDatabase(): Database {
  if (!harness.database) throw new Error("no test database");
  return harness.database;
}

export { principalFor } from "../api-keys/support";
