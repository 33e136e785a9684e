// One REST operation as the OpenAPI document describes it.

import type { z } from "zod";

export type Method = "get" | "post" | "put" | "patch" | "delete";
export type Security = "bearer" | "cookie";

export interface Operation {
  method: Method;
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  success: { status: number; description: string; schema?: z.ZodType };
  errors: number[];
  /** Defaults to both; issuing and revoking keys needs the session cookie. */
  security?: Security[];
  /** The API key scope the operation needs. */
  scope?: "read" | "write";
}
