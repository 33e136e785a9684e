import { AppError } from "@/lib/errors";

/** The core's failures: AppErrors with the codes every surface maps (lib/errors.ts); these name the common ones. */

/** Absent, or not the caller's: the two are deliberately indistinguishable. */
export class MemoryNotFoundError extends AppError {
  constructor(readonly id: string) {
    super("not_found", `No memory with id ${id}.`);
    this.name = "MemoryNotFoundError";
  }
}

export class MemoryConflictError extends AppError {
  constructor(
    message: string,
    readonly currentVersion?: number,
  ) {
    super("conflict", message, [], { currentVersion });
    this.name = "MemoryConflictError";
  }
}

/** A namespace template names a key the context does not provide: a wiring bug, never the model's or user's fault. */
export class NamespaceTemplateError extends AppError {
  constructor(
    readonly template: readonly string[],
    readonly missingKey: string,
  ) {
    super(
      "internal",
      `Namespace template ${JSON.stringify(template)} needs "${missingKey}", which the context does not provide.`,
    );
    this.name = "NamespaceTemplateError";
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super("payload_too_large", `Content is ${bytes} bytes; the limit is ${limit}.`, [
      { path: ["content"], message: `at most ${limit} bytes` },
    ]);
    this.name = "PayloadTooLargeError";
  }
}

/** A write that would take the user past one of their quotas; nothing of it is written. The message names the limit. */
export class QuotaExceededError extends AppError {
  constructor(message: string) {
    super("quota_exceeded", message);
    this.name = "QuotaExceededError";
  }
}
