/** Stands in for this app's origin: a target is accepted only if it resolves to the app itself, wherever it runs. */
const SAME_ORIGIN = "http://same.origin";
/** Longer targets are dropped: proxies refuse responses with oversized headers. */
const MAX_REDIRECT_LENGTH = 2_048;
/**
 * The URL parser reads a backslash as a slash and drops tabs and line breaks, so a target holding them means
 * something other than what it shows; such a target is refused rather than repaired.
 */
const AMBIGUOUS = /[\\\p{Cc}]/u;

/**
 * The same-origin path to send the user to after signing in; anything else becomes `/`. Every place that takes a
 * redirect or callback target from a request goes through here.
 *
 * The target is resolved against the app's origin and kept only when it lands there; what comes back is the
 * normalised path, query and hash as the URL parser writes them (percent-encoded ASCII, a valid Location header).
 * Normalising can itself produce `//host` (`/.//evil.com`, `/%2e//evil.com`), which a browser would read as another
 * site, so the result is resolved once more and must land on the very same URL.
 */
export function safeRedirectPath(value: string | null | undefined): string {
  if (!value?.startsWith("/") || value.length > MAX_REDIRECT_LENGTH || AMBIGUOUS.test(value)) return "/";
  let url: URL;
  try {
    url = new URL(value, SAME_ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== SAME_ORIGIN) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  return new URL(path, SAME_ORIGIN).href === url.href ? path : "/";
}
