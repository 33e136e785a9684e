/** A same-origin path to send the user to after signing in; anything else (absolute URLs, `//host`) becomes `/`. */
export function safeRedirectPath(value: string | null | undefined): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  return value;
}
