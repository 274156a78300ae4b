/**
 * The first key of every two-key advisory lock HyMem takes ('HyMe' in ASCII), so its locks never collide
 * with an application's one-key locks or with other two-key namespaces. The second key is
 * `hashtext('<schema>:<name>')`.
 */
export const LOCK_NAMESPACE = 0x48794d65
