import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files it loads from its own package directory; bundling breaks those paths.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-pgvector", "postgres", "bcryptjs"],
  poweredByHeader: false,
};

export default nextConfig;
