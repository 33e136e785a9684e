/**
 * Cross-site request checks for requests that a browser authenticates with the session cookie. API keys are exempt:
 * a browser never attaches them on its own, so another site cannot make a victim's browser send one.
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Why a cookie-authenticated request must be refused, or null when it may proceed. A mutation must come from a page
 * of this app: its Origin names this host (as Next.js checks server actions: `x-forwarded-host`, else `host`). Without
 * an Origin header, the browser's Sec-Fetch-Site decides; a request with neither comes from a non-browser client,
 * which holds the cookie itself.
 */
export function crossSiteRefusal(request: Request): string | null {
  if (SAFE_METHODS.has(request.method)) return null;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    return originHost(origin) === appHost(request) ? null : "Cross-site request refused: the Origin is not this app.";
  }
  const site = request.headers.get("sec-fetch-site");
  return site === "cross-site" || site === "same-site"
    ? "Cross-site request refused: it came from another site."
    : null;
}

/**
 * True for a request another site's page triggered that is not the visitor's own top-level navigation: an image,
 * script, fetch or frame. Links followed to this app from elsewhere are navigations and stay allowed.
 */
export function isCrossSiteSubrequest(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== "cross-site" && site !== "same-site") return false;
  return request.headers.get("sec-fetch-mode") !== "navigate" || request.headers.get("sec-fetch-dest") !== "document";
}

function appHost(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  return (forwarded || request.headers.get("host") || new URL(request.url).host).toLowerCase();
}

/** The host (with port) an Origin header names; `null` and malformed origins match no host. */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}
