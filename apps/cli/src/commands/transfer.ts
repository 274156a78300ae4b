import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { resolve } from 'node:path'
import { PRIVATE_FILE_MODE } from '@hymem/core-store'
import { EXIT_FAILURE, ExitError } from '../exit-error'
import type { ImportReport } from '../facade-types'
import { renderTable } from '../format/table'
import type { CliContext } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'
import { describeFsError, readInputLines } from '../read-input'

/** Options of `hymem export`. */
export interface ExportCommandOptions extends GlobalOptions {
  /** A file path, or `-` for stdout. @default '-' */
  readonly out?: string
  /** Include the stored vectors (an import then keeps them instead of re-embedding). */
  readonly withVectors?: boolean
}

/**
 * Streams the store as JSONL (dump format 2): every workspace, or only `--workspace`; vectors only with
 * `--with-vectors`. A file is written to a temporary name and renamed when complete, so a failed export
 * never leaves half a dump.
 */
export async function exportCommand(
  options: ExportCommandOptions,
  ctx: CliContext,
): Promise<{ lines: number }> {
  const out = options.out ?? '-'
  return withHyMem(
    options,
    ctx,
    async (hymem) => {
      const lines = hymem.export({
        ...(options.workspace !== undefined ? { workspaceId: hymem.workspaceId } : {}),
        withVectors: options.withVectors === true,
      })
      if (out === '-') {
        let count = 0
        for await (const line of lines) {
          // process.stdout writes to a file or a pipe synchronously on Linux: no buffer builds up.
          ctx.stdout.write(`${line}\n`)
          count += 1
        }
        return { lines: count }
      }
      const path = resolve(ctx.cwd, out)
      const count = await writeAtomically(path, lines)
      ctx.stderr.write(`Exported ${count} records to ${out}\n`)
      return { lines: count }
    },
    { quiet: true },
  )
}

async function writeAtomically(path: string, lines: AsyncIterable<string>): Promise<number> {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  // A dump holds the whole memory: created private, and never through a file someone put there first.
  const stream = createWriteStream(temp, { encoding: 'utf8', flags: 'wx', mode: PRIVATE_FILE_MODE })
  const failed = new Promise<never>((_, reject) => stream.once('error', reject))
  failed.catch(() => {})
  let count = 0
  try {
    await Promise.race([once(stream, 'open'), failed])
    for await (const line of lines) {
      if (!stream.write(`${line}\n`)) await Promise.race([once(stream, 'drain'), failed])
      count += 1
    }
    stream.end()
    await Promise.race([once(stream, 'finish'), failed])
    await rename(temp, path)
    return count
  } catch (error) {
    stream.destroy()
    await rm(temp, { force: true })
    if ((error as { code?: string }).code) {
      throw new ExitError(EXIT_FAILURE, `cannot write ${path}: ${describeFsError(error)}`, { cause: error })
    }
    throw error
  }
}

/** Options of `hymem import`. */
export interface ImportCommandOptions extends GlobalOptions {
  readonly json?: boolean
}

/**
 * Streams a JSONL dump in (format 1 or 2); existing rows are skipped, so re-running it, or importing into a
 * memory that holds part of it, is harmless. An invalid dump is refused as a whole (nothing written).
 */
export async function importCommand(
  source: string,
  options: ImportCommandOptions,
  ctx: CliContext,
): Promise<ImportReport> {
  const lines = await readInputLines(source, ctx)
  const report = await withHyMem(options, ctx, (hymem) => hymem.import(lines))
  if (options.json) {
    ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  } else {
    ctx.stdout.write(renderImportReport(report, source === '-' ? 'stdin' : source))
  }
  for (const warning of report.warnings) ctx.stderr.write(`warn: ${warning}\n`)
  return report
}

/** The readable form of an import: inserted and skipped records per type. */
export function renderImportReport(report: ImportReport, source: string): string {
  const kinds = [...new Set([...Object.keys(report.inserted), ...Object.keys(report.skipped)])].sort()
  const rows = kinds.map((kind) => [
    kind,
    String(report.inserted[kind] ?? 0),
    String(report.skipped[kind] ?? 0),
  ])
  const table = renderTable(rows, {
    head: ['record', 'inserted', 'skipped'],
    align: ['left', 'right', 'right'],
  })
  return `Imported from ${source}\n${table}vectors embedded: ${report.embedded}\n`
}
