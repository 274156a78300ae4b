/** A text embedding model. Implementations: OpenAI-compatible, local (MiniLM, USE-lite), fake, cached wrapper. */
export interface EmbeddingClient {
  /** Stable id for logs and `doctor`, e.g. `openai-compatible:text-embedding-3-small`. */
  readonly name: string
  /** Model id; vectors of different models are never comparable. */
  readonly model: string
  /** Vector length when known up front (providers may only reveal it on the first answer). */
  readonly dimensions?: number
  /** Embeds each text; the result has one vector per input, in input order. */
  embed(texts: readonly string[], opts?: { signal?: AbortSignal }): Promise<Float32Array[]>
}
