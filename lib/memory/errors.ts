/** Typed failures of the memory core. Surfaces map `code` to their own vocabulary (HTTP status, tool error, …). */
export abstract class MemoryError extends Error {
  abstract readonly code: "not_found" | "conflict" | "validation" | "namespace_template" | "payload_too_large";
}

/** Absent, or not the caller's: the two are deliberately indistinguishable. */
export class MemoryNotFoundError extends MemoryError {
  readonly code = "not_found";
  constructor(readonly id: string) {
    super(`No memory with id ${id}.`);
    this.name = "MemoryNotFoundError";
  }
}

export class MemoryConflictError extends MemoryError {
  readonly code = "conflict";
  constructor(
    message: string,
    readonly currentVersion?: number,
  ) {
    super(message);
    this.name = "MemoryConflictError";
  }
}

export interface ValidationIssue {
  path: (string | number)[];
  message: string;
}

export class MemoryValidationError extends MemoryError {
  readonly code = "validation";
  constructor(
    message: string,
    readonly issues: ValidationIssue[] = [],
  ) {
    super(message);
    this.name = "MemoryValidationError";
  }
}

/** A namespace template names a key the context does not provide: a wiring bug, never the model's or user's fault. */
export class NamespaceTemplateError extends MemoryError {
  readonly code = "namespace_template";
  constructor(
    readonly template: readonly string[],
    readonly missingKey: string,
  ) {
    super(`Namespace template ${JSON.stringify(template)} needs "${missingKey}", which the context does not provide.`);
    this.name = "NamespaceTemplateError";
  }
}

export class PayloadTooLargeError extends MemoryError {
  readonly code = "payload_too_large";
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`Content is ${bytes} bytes; the limit is ${limit}.`);
    this.name = "PayloadTooLargeError";
  }
}
