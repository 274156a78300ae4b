/** Request limits; the defaults follow the Honcho server (§6 of the protocol notes). */
export interface HonchoLimits {
  /** Largest JSON request body in bytes. @default 2 MiB */
  readonly jsonBodyBytes: number
  /** Largest multipart upload request in bytes (the file itself is capped by `uploadFileBytes`). @default 6 MiB */
  readonly uploadBodyBytes: number
  /** Largest uploaded file in bytes. @default 5 MiB (5 242 880) */
  readonly uploadFileBytes: number
  /** Longest message content in characters. @default 25 000 */
  readonly messageChars: number
  /** Most messages per batch. @default 100 */
  readonly batchSize: number
  /** Most top-level metadata keys. @default 100 */
  readonly metadataKeys: number
  /** Deepest metadata nesting. @default 5 */
  readonly metadataDepth: number
  /** Largest `tokens` budget for session context. @default 100 000 */
  readonly contextTokens: number
}

/** The limits `createHonchoApp` applies unless overridden. */
export const DEFAULT_LIMITS: HonchoLimits = Object.freeze({
  jsonBodyBytes: 2 * 1024 * 1024,
  uploadBodyBytes: 6 * 1024 * 1024,
  uploadFileBytes: 5 * 1024 * 1024,
  messageChars: 25_000,
  batchSize: 100,
  metadataKeys: 100,
  metadataDepth: 5,
  contextTokens: 100_000,
})

/** `^[a-zA-Z0-9_-]{1,512}$`: workspace, peer and session ids. */
export const ID_PATTERN = /^[a-zA-Z0-9_-]{1,512}$/

/**
 * Deepest nesting of a JSON body or JSON form field, checked before anything else reads it: past every
 * field's own rule (metadata and configuration 5, filters 5 levels of AND/OR/NOT), far short of the stack.
 */
export const JSON_NESTING_LIMIT = 32
