/**
 * The SQLSTATE of a database error, looked up through the `cause` chain: drizzle wraps driver errors, and PGlite and
 * postgres.js both report the code as `code`.
 */
export function postgresErrorCode(error: unknown): string | undefined {
  for (let cause: unknown = error; cause && typeof cause === "object"; cause = (cause as { cause?: unknown }).cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = "23505";
