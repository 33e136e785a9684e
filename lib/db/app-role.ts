/**
 * The unprivileged role a unit of work switches to, so row-level security applies (docs/security.md): created by the
 * migrations where the login may, and required on PostgreSQL. Its own module, so the client and the Citus
 * distribution both name it without importing each other.
 */
export const APP_ROLE = "memory_ledger_app";
