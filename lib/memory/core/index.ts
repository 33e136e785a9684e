// What every wing of the memory core shares: the context each call takes (who, under which root, in which unit of
// work), the errors the core raises, content kinds, namespaces, and what a background run's record says of its life.
export {
  type Actor,
  canEmbed,
  type MemoryContext,
  type Provenance,
  sourceTypeFor,
  systemClock,
  withUnit,
} from "./context";
export {
  MemoryConflictError,
  MemoryNotFoundError,
  NamespaceTemplateError,
  PayloadTooLargeError,
  QuotaExceededError,
} from "./errors";
export {
  contentHash,
  createKindRegistry,
  defaultKinds,
  defineKind,
  factKey,
  KindRegistry,
  type PreparedContent,
  prepareContent,
  renderFields,
} from "./kinds";
export {
  absoluteNamespace,
  intArray,
  type NamespaceTemplate,
  namespaceHasPrefix,
  relativeNamespace,
  resolveNamespaceTemplate,
  textArray,
} from "./namespace";
export { type RunLife, serializeRunLife } from "./run-life";
