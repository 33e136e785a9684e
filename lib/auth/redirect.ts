const SAME_ORIGIN = "http://same.origin";
/** Longer targets are dropped: proxies refuse responses with oversized headers. */
const MAX_REDIRECT_LENGTH = 2_048;

/**
 * A same-origin path to send the user to after signing in; anything else (absolute URLs, `//host`, `/\host`) becomes
 * `/`. The path comes back as the URL parser writes it: percent-encoded ASCII without control characters, so it is
 * always a valid Location header.
 */
export function safeRedirectPath(value: string | null | undefined): string {
  if (!value?.startsWith("/") || value.length > MAX_REDIRECT_LENGTH) return "/";
  let url: URL;
  try {
    url = new URL(value, SAME_ORIGIN);
  } catch {
    return "/";
  }
  return url.origin === SAME_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : "/";
}
