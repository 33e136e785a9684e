/**
 * Response headers that harden every page and API response. Pure values and functions (no next/* imports), so
 * next.config.ts, the proxy and tests share one definition.
 */

/** Sent on every response, pages and API alike (next.config.ts `headers()`). */
export const SECURITY_HEADERS: ReadonlyArray<{ key: string; value: string }> = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
];

/**
 * API responses are JSON (or Auth.js's own small HTML pages, whose inline styles stay readable): nothing in them
 * may run or be framed.
 */
export const API_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

/** A fresh, unguessable value for one page response. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The policy for one page response. Scripts run only with this response's nonce (Next.js reads it from the request's
 * CSP header and puts it on its own scripts) or when loaded by such a script ('strict-dynamic'). Styles allow inline
 * because server-rendered components carry style attributes, which a nonce cannot cover; development adds
 * 'unsafe-eval', which React uses there to rebuild server error stacks.
 */
export function pageContentSecurityPolicy(nonce: string, options: { development: boolean }): string {
  const script = ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(options.development ? ["'unsafe-eval'"] : [])];
  return [
    "default-src 'self'",
    `script-src ${script.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
