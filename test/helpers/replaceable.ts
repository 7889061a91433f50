/**
 * A service given to `startService` whose implementation a test changes between cases: the
 * service keeps the one object it was built with, and every call goes to what the test set last
 * (or to `fallback` when it set nothing). Tests use it to make a provider or a storage fail
 * mid-run without swapping parts of a running service.
 */
export interface Replaceable<T extends object> {
  /** What to pass in `services`. */
  service: T;
  /** Sends calls to `impl` from now on; null goes back to the fallback. */
  use(impl: T | null): void;
}

export function replaceable<T extends object>(fallback: () => T): Replaceable<T> {
  let current: T | null = null;
  const service = new Proxy({} as T, {
    get(_target, property) {
      const target = current ?? fallback();
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    service,
    use: (impl) => {
      current = impl;
    },
  };
}
