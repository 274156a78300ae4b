import { createReadStream } from 'node:fs'
import { access, readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { EXIT_FAILURE, ExitError } from './exit-error'
import type { CliContext } from './io'

/** Reads a whole input: a file path, or `-` for stdin. A missing or unreadable file is an ExitError. */
export async function readInput(source: string, ctx: CliContext): Promise<string> {
  if (source === '-') {
    let text = ''
    const decoder = new TextDecoder()
    for await (const chunk of ctx.stdin) {
      text += typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true })
    }
    return text + decoder.decode()
  }
  const path = resolve(ctx.cwd, source)
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    throw new ExitError(EXIT_FAILURE, `cannot read ${source}: ${describeFsError(error)}`, { cause: error })
  }
}

/**
 * Reads an input line by line (a file path, or `-` for stdin) without holding it whole, so a dump larger
 * than memory streams through. A missing or unreadable file is an ExitError before the first line.
 */
export async function readInputLines(source: string, ctx: CliContext): Promise<AsyncIterable<string>> {
  if (source === '-') return splitLines(ctx.stdin)
  const path = resolve(ctx.cwd, source)
  try {
    await access(path)
    const stream = createReadStream(path)
    await new Promise<void>((ok, fail) => stream.once('readable', ok).once('error', fail))
    return splitLines(stream)
  } catch (error) {
    throw new ExitError(EXIT_FAILURE, `cannot read ${source}: ${describeFsError(error)}`, { cause: error })
  }
}

async function* splitLines(chunks: AsyncIterable<string | Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  let rest = ''
  for await (const chunk of chunks) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true })
    const lines = rest.split(/\r?\n/)
    rest = lines.pop() ?? ''
    yield* lines
  }
  rest += decoder.decode()
  if (rest !== '') yield rest
}

/** A one-line reason for a file-system error. */
export function describeFsError(error: unknown): string {
  const code = (error as { code?: string }).code
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory (check the path)'
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'EISDIR':
      return 'is a directory, not a file'
    default:
      return error instanceof Error ? error.message : String(error)
  }
}
