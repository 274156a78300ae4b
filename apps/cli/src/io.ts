import type { Readable } from 'node:stream'
import { maskSecrets } from 'hymem'

/** Where a command writes: `write` takes whole strings; `isTTY`/`columns` decide colours and progress bars. */
export interface CliOutput {
  write(text: string): void
  readonly isTTY?: boolean
  readonly columns?: number
}

/** The process edges a command may touch. Tests pass captured streams and a fixed clock. */
export interface CliContext {
  readonly stdout: CliOutput
  readonly stderr: CliOutput
  /** Read by `capture -` and `import -`. */
  readonly stdin: Readable | AsyncIterable<string | Uint8Array>
  /** Environment variables (only the CLI reads them; packages get typed options). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Directory relative paths resolve against. */
  readonly cwd: string
  /** Injected time source for stable output in tests. @default () => new Date() */
  readonly clock?: () => Date
  /** Injected fetch for `doctor`'s endpoint checks. @default globalThis.fetch */
  readonly fetch?: typeof globalThis.fetch
  /**
   * Asks for Ctrl-C to become a clean stop: the returned signal aborts on Ctrl-C, and dream and reindex stop
   * at their next checkpoint, keeping what they committed. Only commands that can stop cleanly call it.
   */
  readonly interruptible?: () => AbortSignal
}

/** Colours only on a terminal, and never when NO_COLOR is set. */
export function colorEnabled(ctx: CliContext, output: CliOutput = ctx.stdout): boolean {
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '') return false
  if (ctx.env.FORCE_COLOR !== undefined && ctx.env.FORCE_COLOR !== '0') return true
  return output.isTTY === true
}

/** Writes one line (adds the newline). */
export function println(output: CliOutput, line = ''): void {
  output.write(`${line}\n`)
}

/**
 * `output` with URL passwords and secret parameters masked in everything written to it (errors, log lines,
 * notes); a terminal keeps its cursor methods, so progress bars still draw.
 */
export function maskingOutput(output: CliOutput): CliOutput {
  return new Proxy(output, {
    get(target, property) {
      if (property === 'write') return (text: string) => target.write(maskSecrets(text))
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
