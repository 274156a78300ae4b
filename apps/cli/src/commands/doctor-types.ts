/** Outcome of one doctor check. */
export type CheckStatus = 'ok' | 'warn' | 'fail'

/** One line of the doctor table. */
export interface DoctorCheck {
  readonly name: string
  readonly status: CheckStatus
  readonly detail: string
}

/** What `hymem doctor --json` prints. */
export interface DoctorReport {
  /** False when any check failed. */
  readonly ok: boolean
  readonly checks: readonly DoctorCheck[]
  /** Resolved settings, secrets masked. */
  readonly settings: Readonly<Record<string, string>>
}

/** An OpenAI-compatible endpoint doctor may probe (`GET <baseUrl>/models`). */
export interface EndpointProbe {
  /** Check name, e.g. `llm endpoint`. */
  readonly name: string
  readonly baseUrl: string
  readonly apiKey: string
  /** The variable the key came from, named in the fix. */
  readonly keyVariable: string
}

/** The configured embedder as doctor sees it, without loading a model. */
export interface EmbedderInfo {
  readonly provider: string
  readonly name: string
  readonly model: string
  /** Unknown for remote providers until their first answer. */
  readonly dimensions: number | null
}

/** Default timeout of each endpoint check, in ms. */
export const DOCTOR_TIMEOUT_MS = 5000
