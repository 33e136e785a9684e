import { hostname, networkInterfaces } from "node:os";
import type { NextConfig } from "next";
import { API_CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from "./lib/security/headers";
import externalPackages from "./lib/server/external-packages.json";

/**
 * The hosts this machine answers to: `next dev` serves its scripts and hot reload only to pages opened from
 * localhost or a host listed here, so opening the app at 127.0.0.1 or by the machine's LAN name gave a dead chat.
 */
function localHosts(): string[] {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .flatMap((entry) => (entry ? [entry.address] : []));
  const ipv6 = addresses.filter((address) => address.includes(":")).map((address) => `[${address}]`);
  return [...new Set(["127.0.0.1", "[::1]", hostname(), `${hostname()}.local`, ...addresses, ...ipv6])];
}

const nextConfig: NextConfig = {
  allowedDevOrigins: localHosts(),
  // PGlite ships WASM and data files it loads from its own package directory; bundling breaks those paths. The local
  // embedding model does the same: TF.js finds its .wasm next to its own file, the weights sit beside the model package.
  // The English word list is a text file beside its module. Piscina starts the local encoder's worker threads and the
  // consolidation finder's comparing thread from files it resolves at run time (lib/ai/local-embedding-worker.mjs,
  // lib/memory/consolidation/close-pairs-worker.mjs). The standalone worker's bundle leaves the same
  // packages out (scripts/worker-bundle.mjs).
  serverExternalPackages: [...externalPackages],
  poweredByHeader: false,
  // Responses are not gzipped here: the wrapper cost every API answer about 0.4 ms, and most answers are a few hundred
  // bytes. Compression belongs to the reverse proxy or CDN in front (docs/configuration.md "Running on PostgreSQL").
  compress: false,
  // The console's import sends a whole export file to a server action; the default limit is 1 MB.
  experimental: { serverActions: { bodySizeLimit: "10mb" } },
  // Pages get their Content-Security-Policy (with a per-request nonce) from proxy.ts.
  async headers() {
    return [
      { source: "/:path*", headers: [...SECURITY_HEADERS] },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }] },
    ];
  },
};

export default nextConfig;
