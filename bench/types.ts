/** One measured figure, usually paired with the raw operation it wraps. */
export interface BenchResult {
  readonly name: string
  readonly unit: string
  readonly value: number
  /** The raw SQLite / ideal figure measured in the same run. */
  readonly baseline?: number
  /** value / baseline (or the inverse for throughputs), as the bench defines it. */
  readonly ratio?: number
  readonly notes?: string
}

export interface BenchOptions {
  readonly quick: boolean
}

/** `say` prints a progress line (benchmarks may ignore it). */
export type BenchRun = (options: BenchOptions, say?: (line: string) => void) => Promise<BenchResult[]>
