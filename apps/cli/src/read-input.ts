import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { EXIT_FAILURE, ExitError } from './exit-error'
import type { CliContext } from './io'

/**
 * Reads an input line by line (a file path, or `-` for stdin) without holding it whole, so a dump larger
 * than memory streams through. A missing or unreadable file is an ExitError before the first line.
 */
export async function readInputLines(source: string, ctx: CliContext): Promise<AsyncIterable<string>> {
  return splitLines((await streamInput(source, ctx)).text)
}

/** An input opened as a stream of decoded text, with what a progress display needs. */
export interface InputStream {
  readonly text: AsyncIterable<string>
  /** The file's size in bytes; null for stdin. */
  readonly size: number | null
  /** Bytes read so far. */
  bytesRead(): number
}

/** Opens an input (a file path, or `-` for stdin) as decoded text chunks; a bad file fails before the first. */
export async function streamInput(source: string, ctx: CliContext): Promise<InputStream> {
  let bytes = 0
  const counted = async function* (chunks: AsyncIterable<string | Uint8Array>): AsyncGenerator<string> {
    const decoder = new TextDecoder()
    for await (const chunk of chunks) {
      if (typeof chunk === 'string') {
        bytes += Buffer.byteLength(chunk)
        yield chunk
      } else {
        bytes += chunk.byteLength
        yield decoder.decode(chunk, { stream: true })
      }
    }
    const tail = decoder.decode()
    if (tail !== '') yield tail
  }
  if (source === '-') return { text: counted(ctx.stdin), size: null, bytesRead: () => bytes }
  const path = resolve(ctx.cwd, source)
  try {
    const { size } = await stat(path)
    const stream = createReadStream(path)
    await new Promise<void>((ok, fail) => stream.once('readable', ok).once('error', fail))
    return { text: counted(stream), size, bytesRead: () => bytes }
  } catch (error) {
    throw new ExitError(EXIT_FAILURE, `cannot read ${source}: ${describeFsError(error)}`, { cause: error })
  }
}

async function* splitLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = ''
  for await (const chunk of chunks) {
    rest += chunk
    const lines = rest.split(/\r?\n/)
    rest = lines.pop() ?? ''
    yield* lines
  }
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
