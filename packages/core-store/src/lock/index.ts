export { createRunLock, DEFAULT_LOCK_STALE_AFTER_MS, isProcessAlive } from './run-lock'
export type {
  HeldRunLock,
  RunLock,
  RunLockAcquireResult,
  RunLockHolder,
  RunLockOptions,
  RunLockTakeoverReason,
  SqliteLike,
} from './types'
