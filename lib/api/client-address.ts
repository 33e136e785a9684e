import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import { isIPv6, type Socket } from "node:net";
import { type Config, config } from "@/lib/config";
import { processState } from "@/lib/process-state";

/** The limit key of every client whose address is not known: they share one budget. */
export const UNKNOWN_CLIENT = "unknown-client";

/**
 * Where this process writes the address of the socket a request arrived on. Route handlers see a web Request, never
 * the socket, and X-Forwarded-For cannot stand in for it: `next start` fills that header from the socket only when the
 * request did not carry one (`??=` in next/dist/server/base-server.js), so without a proxy in front it is whatever
 * the client wrote. This header is written over on every request, so what a client sends under its name is lost.
 */
export const SOCKET_ADDRESS_HEADER = "x-memory-ledger-socket-address";

interface RequestStart {
  request: IncomingMessage;
  socket: Socket;
}

/**
 * Writes each request's socket address into SOCKET_ADDRESS_HEADER, before any request listener runs: Node publishes
 * `http.server.request.start` for every request of every HTTP server in the process, synchronously, ahead of the
 * server's 'request' event, and Next.js builds the Request its handlers see from the same header object. Called once
 * at server start (lib/server/start.ts); until then (or in a process that never calls it) the header is not trusted.
 */
export function recordSocketAddresses(): void {
  const state = socketAddresses();
  if (state.recorded) return;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as RequestStart;
    const address = socket.remoteAddress;
    if (address) request.headers[SOCKET_ADDRESS_HEADER] = address;
    else delete request.headers[SOCKET_ADDRESS_HEADER];
  });
  state.recorded = true;
}

const socketAddresses = () => processState("socket-addresses", () => ({ recorded: false }));

/**
 * The client's address for rate limits. Behind TRUST_PROXY trusted proxies, each appends the address it received the
 * request from, so the client is the entry that many places from the right; entries further left are whatever the
 * client sent. With no proxy trusted the header is the client's own claim (Next.js passes on whatever it was sent),
 * so the client is the peer of the socket (SOCKET_ADDRESS_HEADER). Anything else (no header, an oversized one) is
 * UNKNOWN_CLIENT.
 */
export function clientAddress(headers: Headers, settings: Config = config()): string {
  const hops = settings.TRUST_PROXY;
  const address =
    hops === 0
      ? socketAddresses().recorded
        ? headers.get(SOCKET_ADDRESS_HEADER)?.trim()
        : undefined
      : (headers.get("x-forwarded-for") ?? "")
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean)
          .at(-hops);
  return address && address.length <= 64 ? limitKeyOf(address) : UNKNOWN_CLIENT;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part counts as two), or null. */
function ipv6Groups(address: string): number[] | null {
  const bare = address.split("%")[0] ?? "";
  if (!isIPv6(bare)) return null;
  const [left = "", right] = bare.split("::");
  const parse = (part: string) =>
    part
      ? part.split(":").flatMap((group) => {
          if (!group.includes(".")) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
          return [(a << 8) | b, (c << 8) | d];
        })
      : [];
  const head = parse(left);
  const tail = right === undefined ? [] : parse(right);
  return [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail];
}

/**
 * What a client address is counted under. One IPv6 host is normally handed a whole /64 and can pick any address in
 * it, so an IPv6 client is counted by its /64; an IPv4-mapped IPv6 address (`::ffff:203.0.113.9`, how a dual-stack
 * socket reports IPv4 peers) is the IPv4 address it carries, so both spellings share one budget.
 */
export function limitKeyOf(address: string): string {
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
