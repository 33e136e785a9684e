import type { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { routeHarness } from "../support/route-harness";

/** How a row's caller authenticates: a session cookie, or an API key with no session at all. */
export type Auth = "session" | "key";

/**
 * What the isolation suite's surface drivers read: the route harness (database, session — null when the request
 * authenticates by API key only —, what routes enqueued or handed to `after()`), plus the key requests send and the
 * MCP clients.
 */
export const harness = Object.assign(routeHarness, {
  auth: "session" as Auth,
  apiKey: null as string | null,
  mcp: { session: null as McpClient | null, key: null as McpClient | null },
});

export { principalFor } from "../api-keys/support";
export { harnessDatabase as testDatabase } from "../support/route-harness";
