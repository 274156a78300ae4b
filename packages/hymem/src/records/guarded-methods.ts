/**
 * The named methods of `target` bound to it, each running `before()` first (the facade's closed check), so a
 * group of the facade can hand out a repository's methods without handing out the repository.
 */
export function guardedMethods<T extends object, K extends keyof T>(
  target: T,
  keys: readonly K[],
  before: () => void,
): Pick<T, K> {
  const picked: Partial<Pick<T, K>> = {}
  for (const key of keys) {
    const method = target[key]
    if (typeof method !== 'function') throw new TypeError(`${String(key)} is not a method`)
    picked[key] = (async (...args: unknown[]) => {
      before()
      return method.apply(target, args)
    }) as T[K]
  }
  return Object.freeze(picked) as Pick<T, K>
}
