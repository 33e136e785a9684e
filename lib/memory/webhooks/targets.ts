import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { ValidationError } from "@/lib/errors";

/**
 * Where webhooks may go. A target on a private, loopback, link-local or otherwise non-public address would let any
 * user make this server call into its own network (cloud metadata at 169.254.169.254, an admin port on localhost),
 * so such targets are refused unless the operator allows them (WEBHOOK_ALLOW_PRIVATE, for tests and local setups).
 */
export interface TargetPolicy {
  allowPrivate: boolean;
}

const NON_PUBLIC_IPV4 = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const;

/**
 * IPv6 prefixes whose last 32 bits are an IPv4 address the stack may reach: IPv4-compatible (`::a.b.c.d`, `::7f00:1`)
 * and IPv4-translated (`::ffff:0:a.b.c.d`). Each non-public IPv4 range is blocked inside each of them too, so an
 * address is judged by the IPv4 address it carries however it is written. IPv4-mapped (`::ffff:a.b.c.d`) needs no
 * entry: BlockList checks those against the IPv4 rules itself. NAT64 (64:ff9b::/96) is refused whole below.
 */
const IPV4_EMBEDDING_PREFIXES = ["::", "::ffff:0:"] as const;

const NON_PUBLIC_IPV6 = [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const;

const blocked = new BlockList();
for (const [network, prefix] of NON_PUBLIC_IPV4) {
  blocked.addSubnet(network, prefix, "ipv4");
  for (const embedding of IPV4_EMBEDDING_PREFIXES) blocked.addSubnet(`${embedding}${network}`, 96 + prefix, "ipv6");
}
for (const [network, prefix] of NON_PUBLIC_IPV6) blocked.addSubnet(network, prefix, "ipv6");

/** Whether an IP address is anything but a public unicast address; an IPv6 address carrying an IPv4 one is judged by it. */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, "ipv4");
  if (family === 6) return blocked.check(bare, "ipv6");
  return true;
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)\.?$/i;

const refuse = (message: string) => new ValidationError(message, [{ path: ["url"], message }]);

/**
 * Checks a target URL as written: https (plain http only where private targets are allowed, i.e. tests and local
 * setups), no credentials, and no literal non-public address or local-only name. Names are resolved and checked
 * again before every delivery (see resolveTarget), so a name that later points inside is refused then.
 */
export function checkTargetUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("Invalid input: url: not a URL.");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowPrivate)) {
    throw refuse("Invalid input: url: webhooks are sent over https only.");
  }
  if (url.username || url.password) throw refuse("Invalid input: url: credentials in the URL are not allowed.");
  if (policy.allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) ? isNonPublicAddress(host) : LOCAL_NAMES.test(host)) {
    throw refuse("Invalid input: url: private, loopback and link-local addresses are not allowed as webhook targets.");
  }
  return url;
}

export type Lookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TargetRefusedError";
  }
}

/**
 * The address a delivery connects to: the host resolved now, refused if any of its addresses is non-public (unless
 * allowed). The request then connects to exactly this address, so a name that resolves differently a moment later
 * (DNS rebinding) cannot move it inside.
 */
export async function resolveTarget(
  hostname: string,
  policy: TargetPolicy,
  lookup: Lookup = systemLookup,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host);
  const first = addresses[0];
  if (!first) throw new TargetRefusedError(`${host} does not resolve`);
  if (!policy.allowPrivate) {
    const inside = addresses.find((entry) => isNonPublicAddress(entry.address));
    if (inside) throw new TargetRefusedError(`${host} resolves to a non-public address; not delivered`);
  }
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
