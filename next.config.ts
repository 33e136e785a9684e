import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files it loads from its own package directory; bundling breaks those paths.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-pgvector", "postgres", "bcryptjs"],
  poweredByHeader: false,
  // The console's import sends a whole export file to a server action; the default limit is 1 MB.
  experimental: { serverActions: { bodySizeLimit: "10mb" } },
};

export default nextConfig;
