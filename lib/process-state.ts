/**
 * State shared by the whole process, created on first use. Kept on globalThis because Next evaluates a module once
 * per bundle (route handlers, pages and server actions are separate bundles of one process): module-level state
 * would exist once per bundle, so a cache one bundle clears would live on in another.
 */
export function processState<T>(name: string, create: () => T): T {
  const slot = globalThis as typeof globalThis & Record<symbol, T | undefined>;
  const key = Symbol.for(`memory-ledger.${name}`);
  let value = slot[key];
  if (value === undefined) {
    value = create();
    slot[key] = value;
  }
  return value;
}

/** Forgets the state `name`, so the next `processState` creates it again (a failed open is tried again). */
export function clearProcessState(name: string): void {
  delete (globalThis as typeof globalThis & Record<symbol, unknown>)[Symbol.for(`memory-ledger.${name}`)];
}

/** The state `name` if something created it, without creating it. */
export function existingProcessState<T>(name: string): T | undefined {
  return (globalThis as typeof globalThis & Record<symbol, T | undefined>)[Symbol.for(`memory-ledger.${name}`)];
}
