import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HttpConnection } from "@/bench/http-client";

const servers: net.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/**
 * A server that answers each connection's first `answered` requests and resets the connection on the next one
 * without reading it, as Node's keep-alive timer does when it fires before a request that has arrived is read.
 */
async function resettingServer(answered: number) {
  const requests: string[] = [];
  const server = net.createServer((socket) => {
    let count = 0;
    socket.on("data", (chunk: Buffer) => {
      count++;
      if (count > answered) {
        socket.resetAndDestroy();
        return;
      }
      requests.push(chunk.toString("latin1").split("\r\n", 1).join(""));
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}`);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as net.AddressInfo;
  return { origin: `http://127.0.0.1:${address.port}`, requests };
}

describe("a kept-open connection", () => {
  it("sends a request again on a new connection when a reused one is reset before any answer", async () => {
    const server = await resettingServer(1);
    const connection = HttpConnection.keptOpen(server.origin);
    try {
      await connection.request("GET", "/first", {});
      expect(await connection.request("POST", "/second", {}, { text: "x" })).toEqual({ status: 200, body: {} });
      expect(server.requests).toEqual(["GET /first HTTP/1.1", "POST /second HTTP/1.1"]);
      expect(connection.resent()).toBe(1);
    } finally {
      connection.close();
    }
  });

  it("fails a request whose new connection is reset: only a reused one is retried", async () => {
    const server = await resettingServer(0);
    const connection = HttpConnection.keptOpen(server.origin);
    try {
      await expect(connection.request("GET", "/first", {})).rejects.toThrow(/ECONNRESET|closed the connection/);
      expect(server.requests).toEqual([]);
    } finally {
      connection.close();
    }
  });
});
