/** Events emitted through the `log` option of the clients (the default logger is a no-op). */
export type ExtractionLogEvent =
  | {
      kind: 'llm_call'
      client: string
      model: string
      ms: number
      promptTokens: number
      completionTokens: number
      json: boolean
    }
  | { kind: 'json_mode_fallback'; client: string; model: string; reason: string }
  | { kind: 'embed'; client: string; model: string; count: number; batches: number; ms: number }
  | { kind: 'error'; client: string; model: string; code: string; message: string }

/** The `log` option of the clients: receives events synchronously and must not throw. */
export type ExtractionLogger = (event: ExtractionLogEvent) => void

export const _noopLog: ExtractionLogger = () => {}
