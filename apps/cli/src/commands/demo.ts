import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { configFromEnv } from 'hymem'
import { DEMO_QUESTIONS, DEMO_SESSIONS } from '../demo/conversation'
import { EXIT_FAILURE, EXIT_USAGE, ExitError } from '../exit-error'
import type { AugmentedContext } from '../facade-types'
import { createStyle } from '../format/style'
import { type CliContext, colorEnabled } from '../io'
import { openHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'
import { renderAugmented } from './augment-render'
import { failOnBadDream, formatMs, runDream } from './dream'

/** Options of `hymem demo`. */
export interface DemoOptions extends GlobalOptions {
  /** Keep the temporary root instead of deleting it at the end. */
  readonly keep?: boolean
}

/** What the demo did, for tests and `--json`-style callers. */
export interface DemoResult {
  readonly root: string
  readonly messages: number
  readonly answers: readonly AugmentedContext[]
}

const DAY_MS = 86_400_000
const EMBEDDED_PROVIDERS = new Set(['local', 'none', 'fake'])

/**
 * Logs a short sample conversation, dreams it on the embedded defaults (rule-based extractor, no key, no
 * network) and prints what augment returns for a few questions. Uses a temporary root unless `--root`.
 */
export async function demoCommand(options: DemoOptions, ctx: CliContext): Promise<DemoResult> {
  const style = createStyle(colorEnabled(ctx))
  const temporary = options.root === undefined
  const root = temporary ? mkdtempSync(join(tmpdir(), 'hymem-demo-')) : resolve(ctx.cwd, options.root!)
  try {
    return await runDemo(root, options, ctx, style)
  } finally {
    if (temporary && !options.keep) rmSync(root, { recursive: true, force: true })
  }
}

async function runDemo(
  root: string,
  options: DemoOptions,
  ctx: CliContext,
  style: ReturnType<typeof createStyle>,
): Promise<DemoResult> {
  const provider = ctx.env.HYMEM_EMBEDDING_PROVIDER?.trim().toLowerCase()
  // The embedded defaults on purpose: no LLM key, even if the shell has one.
  const { config, errors } = configFromEnv({
    HOME: ctx.env.HOME,
    HYMEM_ROOT: root,
    HYMEM_WORKSPACE: options.workspace ?? 'demo',
    ...(provider && EMBEDDED_PROVIDERS.has(provider) ? { HYMEM_EMBEDDING_PROVIDER: provider } : {}),
  })
  if (errors.length > 0) throw new ExitError(EXIT_USAGE, errors[0]!)
  const out = (text = '') => ctx.stdout.write(`${text}\n`)
  const turns = DEMO_SESSIONS.reduce((n, s) => n + s.turns.length, 0)

  out(style.bold('HyMem demo'))
  out(
    `Maya, a developer, talks with her assistant in ${DEMO_SESSIONS.length} sessions (${turns} turns) about her stack,\n` +
      'her preferences and how she deploys. HyMem logs them, dreams over them with the rule-based\n' +
      'extractor (no LLM key, no network), then answers questions with no LLM on the hot path.',
  )
  out()

  const now = (ctx.clock ?? (() => new Date()))()
  const hymem = await openHyMem(config, ctx)
  try {
    const existing = await hymem.messages.count(hymem.workspaceId)
    if (existing > 0) {
      throw new ExitError(
        EXIT_FAILURE,
        `${config.root} already holds a demo (workspace ${hymem.workspaceId}, ${existing} messages): pass another --root, or explore it with hymem --root ${config.root} --workspace ${hymem.workspaceId} augment "..."`,
      )
    }
    let messages = 0
    for (const session of DEMO_SESSIONS) {
      const start = now.getTime() - session.daysAgo * DAY_MS
      const logged = await hymem.logMessages(
        session.id,
        session.turns.map((turn, i) => ({
          peerId: turn.role === 'user' ? 'maya' : 'assistant',
          role: turn.role,
          content: turn.content,
          createdAt: new Date(start + i * 60_000).toISOString(),
        })),
      )
      messages += logged.length
    }
    out(
      `${style.bold('1. Log')}     ${messages} messages in ${DEMO_SESSIONS.length} sessions → ${config.databasePath}`,
    )

    const report = await runDream(hymem, undefined, ctx)
    failOnBadDream(report)
    const counts = report.counts
    const made = [
      plural(report.chunksCreated, 'chunk'),
      plural(report.edgesUpserted, 'fact'),
      ...(counts.episodes ? [plural(counts.episodes, 'episode')] : []),
      ...(counts.procedures ? [plural(counts.procedures, 'procedure')] : []),
    ].join(', ')
    const took = report.timings.total === undefined ? '' : ` in ${formatMs(report.timings.total)}`
    out(`${style.bold('2. Dream')}   ${made} with extractor "${report.extractor}"${took}`)
    out(`${style.bold('3. Ask')}     augment() for ${DEMO_QUESTIONS.length} questions:`)

    const answers: AugmentedContext[] = []
    for (const question of DEMO_QUESTIONS) {
      const answer = await hymem.augment(question, {
        workspaceId: hymem.workspaceId,
        limits: { hits: 2, graph: 3, episodes: 1, procedures: 1, notes: 2 },
      })
      answers.push(answer)
      out()
      out(style.bold(style.cyan(`Q: ${question}`)))
      ctx.stdout.write(renderAugmented(answer, { style, timings: false, indent: '   ' }))
    }
    out()
    out(style.bold('Next'))
    out('  hymem demo --root ./hymem-demo     keep the demo database and look around')
    out('  hymem capture chat.jsonl --dream   log your own conversations (JSONL) and dream')
    out('  hymem augment "how do I deploy?"   ask your memory')
    out('  hymem doctor                       check the setup (LLM key, embeddings, drift)')
    out('  hymem mcp                          serve the memory to an MCP client over stdio')
    return { root, messages, answers }
  } finally {
    await hymem.close()
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
