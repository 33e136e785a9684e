export { createMemoryClient, type MemoryClient } from "./client";
export { type ErrorCode, type ErrorDetail, MemoryLedgerError } from "./errors";
export type { MemoryClientOptions, RequestOptions } from "./http";
export type * from "./types";
