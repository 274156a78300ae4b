import type { Command } from 'commander'
import { parsePort, parsePositiveInt, parseTime } from '../option-parsers'
import { type CommandRegistrar, globalOptions } from '../program'
import { DOCTOR_TIMEOUT_MS } from './doctor-types'

const collect = (value: string, all: string[] = []) => [...all, value]

/**
 * Every command of the `hymem` program, in help order. Each action imports its implementation on demand,
 * so `hymem --help` or `hymem doctor` never load the MCP SDK or the dreaming pipeline.
 */
export const ALL_COMMANDS: readonly CommandRegistrar[] = [
  (program, ctx) =>
    program
      .command('demo')
      .description(
        'log a sample conversation, dream it on the embedded defaults, and show what augment returns',
      )
      .option('--keep', 'keep the temporary root (printed at the start)')
      .action(async (opts: { keep?: boolean }, command: Command) => {
        const { demoCommand } = await import('./demo')
        await demoCommand({ ...globalOptions(command), keep: opts.keep }, ctx)
      }),
  (program, ctx) =>
    program
      .command('doctor')
      .description('check the configuration, database, vectors, drift, extractor, embedder and endpoints')
      .option('--json', 'print the report as JSON')
      .option('--offline', 'skip the network checks')
      .option('--timeout <ms>', 'timeout of each endpoint check', parsePositiveInt, DOCTOR_TIMEOUT_MS)
      .option(
        '--repair-canonical',
        'merge entity names stored around the canonicalizer (otherwise only reported)',
      )
      .action(
        async (
          opts: { json?: boolean; offline?: boolean; timeout: number; repairCanonical?: boolean },
          command: Command,
        ) => {
          const { doctor } = await import('./doctor')
          const { json, offline, timeout: timeoutMs, repairCanonical } = opts
          await doctor({ ...globalOptions(command), json, offline, timeoutMs, repairCanonical }, ctx)
        },
      ),
  (program, ctx) =>
    program
      .command('capture')
      .description(
        'log a conversation file: JSONL, one {"session_id","role" or "peer_id","content","created_at"?} a line, or a JSON array',
      )
      .argument('<file>', 'the file, or - for stdin')
      .option('--dream', 'dream right after logging')
      .option('--json', 'print the result as JSON')
      .action(async (file: string, opts: { dream?: boolean; json?: boolean }, command: Command) => {
        const { captureCommand } = await import('./capture')
        await captureCommand(file, { ...globalOptions(command), dream: opts.dream, json: opts.json }, ctx)
      }),
  (program, ctx) =>
    program
      .command('dream')
      .description(
        'run one dreaming cycle: extract facts, episodes and procedures, update USER.md and MEMORY.md',
      )
      .option(
        '--budget <chunks>',
        'most chunks to extract this cycle (default HYMEM_DREAM_BUDGET)',
        parsePositiveInt,
      )
      .option('--json', 'print the report as JSON')
      .action(async (opts: { budget?: number; json?: boolean }, command: Command) => {
        const { dreamCommand } = await import('./dream')
        await dreamCommand({ ...globalOptions(command), budget: opts.budget, json: opts.json }, ctx)
      }),
  (program, ctx) =>
    program
      .command('worker')
      .description(
        'dream every workspace with pending work on the configured database, in turn, until SIGTERM or Ctrl-C (run several: the dream locks share the work)',
      )
      .option('--idle-seconds <n>', 'seconds between looks at the queue when idle', parsePositiveInt, 2)
      .option('--once', 'exit once no workspace has pending work')
      .option('--json', 'print each dream report as one JSON line')
      .action(async (opts: { idleSeconds: number; once?: boolean; json?: boolean }, command: Command) => {
        const { workerCommand } = await import('./worker')
        await workerCommand({ ...globalOptions(command), ...opts }, ctx)
      }),
  (program, ctx) =>
    program
      .command('augment')
      .description(
        'show the context retrieved for a message: facts with reason codes, hits, episodes, procedures, notes',
      )
      .argument('<text...>', 'the message, e.g. "what database do we use?"')
      .option('--json', 'print the full result as JSON')
      .option('--peer <id>', 'only what this peer said')
      .option('--session <id>', 'only this session (repeatable)', collect)
      .option('--profile', 'also print USER.md and MEMORY.md')
      .option('--as-of <date>', 'what HyMem would have returned then (ISO date or time)', parseTime)
      .option(
        '--tokens <n>',
        'print one context block of at most n tokens (profile, facts, turns, notes) to paste into a prompt',
        parsePositiveInt,
      )
      .action(
        async (
          words: string[],
          opts: {
            json?: boolean
            peer?: string
            session?: string[]
            profile?: boolean
            asOf?: string
            tokens?: number
          },
          command: Command,
        ) => {
          const { augmentCommand } = await import('./augment')
          await augmentCommand(
            words.join(' '),
            {
              ...globalOptions(command),
              json: opts.json,
              peer: opts.peer,
              sessions: opts.session,
              profile: opts.profile,
              asOf: opts.asOf,
              tokens: opts.tokens,
            },
            ctx,
          )
        },
      ),
  (program, ctx) =>
    program
      .command('history')
      .description(
        "how an entity's facts changed: supersede chains, retractions, evidence, when each became true and was learned",
      )
      .argument('<entity...>', 'the entity, e.g. "billing service"')
      .option('--json', 'print the history as JSON')
      .action(async (words: string[], opts: { json?: boolean }, command: Command) => {
        const { historyCommand } = await import('./history')
        await historyCommand(words.join(' '), { ...globalOptions(command), json: opts.json }, ctx)
      }),
  (program, ctx) =>
    program
      .command('conflicts')
      .description('facts that contradict each other (one subject, competing objects or opposing predicates)')
      .option('--json', 'print the conflicts as JSON')
      .action(async (opts: { json?: boolean }, command: Command) => {
        const { conflictsCommand } = await import('./conflicts')
        await conflictsCommand({ ...globalOptions(command), json: opts.json }, ctx)
      }),
  (program, ctx) =>
    program
      .command('notes')
      .description('list the explicit notes (newest first), or show one by id')
      .argument('[id]', 'show this note')
      .option('--archived', 'the archived notes instead')
      .option('--page <n>', 'page of 50', parsePositiveInt)
      .option('--json', 'print as JSON')
      .action(
        async (
          id: string | undefined,
          opts: { archived?: boolean; page?: number; json?: boolean },
          command: Command,
        ) => {
          const { notesCommand } = await import('./notes')
          await notesCommand(id, { ...globalOptions(command), ...opts }, ctx)
        },
      ),
  (program, ctx) =>
    program
      .command('stats')
      .description('store counts, dream history and search-log figures (volume, empty rate, latency, misses)')
      .option('--json', 'print the figures as JSON')
      .option(
        '--server [url]',
        "also a running hymem-honcho's event-loop delay and dream worker (default: HYMEM_HONCHO_HOST:PORT)",
      )
      .action(async (opts: { json?: boolean; server?: string | true }, command: Command) => {
        const { statsCommand } = await import('./stats')
        await statsCommand(
          {
            ...globalOptions(command),
            json: opts.json,
            ...(opts.server !== undefined ? { server: opts.server } : {}),
          },
          ctx,
        )
      }),
  (program, ctx) =>
    program
      .command('forget')
      .description(
        "forget for good: a session, messages, a peer's messages, a note, a fact or a workspace, with everything derived from it; prints the receipt",
      )
      .argument('<what>', 'session | messages | peer | note | fact | workspace')
      .argument('<ids...>', 'its id (messages: one or more message ids)')
      .option('--json', 'print the receipt as JSON')
      .action(async (what: string, ids: string[], opts: { json?: boolean }, command: Command) => {
        const { forgetCommand } = await import('./forget')
        await forgetCommand(what as never, ids, { ...globalOptions(command), json: opts.json }, ctx)
      }),
  (program, ctx) =>
    program
      .command('export')
      .description('write the memory as JSONL: every workspace, or only --workspace')
      .option('--out <file>', 'output file, or - for stdout', '-')
      .option('--with-vectors', 'include the stored vectors (otherwise an import re-embeds)')
      .action(async (opts: { out: string; withVectors?: boolean }, command: Command) => {
        const { exportCommand } = await import('./transfer')
        await exportCommand({ ...globalOptions(command), out: opts.out, withVectors: opts.withVectors }, ctx)
      }),
  (program, ctx) =>
    program
      .command('import')
      .description('restore a JSONL export; existing rows are skipped, missing vectors are embedded')
      .argument('<file>', 'the export file, or - for stdin')
      .option('--json', 'print the report as JSON')
      .action(async (file: string, opts: { json?: boolean }, command: Command) => {
        const { importCommand } = await import('./transfer')
        await importCommand(file, { ...globalOptions(command), json: opts.json }, ctx)
      }),
  (program, ctx) =>
    program
      .command('migrate')
      .description('copy a whole memory between a SQLite file and a PostgreSQL URL, then check every count')
      .requiredOption('--from <file-or-url>', 'the memory to copy: a SQLite file or postgres://…')
      .requiredOption('--to <file-or-url>', 'where it goes: an empty SQLite file or PostgreSQL database')
      .option('--json', 'print the report as JSON')
      .action(async (opts: { from: string; to: string; json?: boolean }) => {
        const { migrateCommand } = await import('./migrate')
        await migrateCommand(opts, ctx)
      }),
  (program, ctx) =>
    program
      .command('reindex')
      .description('rebuild the full-text index and re-embed everything with the configured embedding model')
      .option('--json', 'print the report as JSON')
      .action(async (opts: { json?: boolean }, command: Command) => {
        const { reindexCommand } = await import('./reindex')
        await reindexCommand({ ...globalOptions(command), json: opts.json }, ctx)
      }),
  (program, ctx) =>
    program
      .command('inspect')
      .description('open the memory inspector: serve the graph, facts, questions and history on loopback')
      // 8766: next to hymem-honcho's 8765.
      .option('--port <port>', 'port on 127.0.0.1 (0 picks a free one)', parsePort, 8766)
      .action(async (opts: { port: number }, command: Command) => {
        const { inspectCommand } = await import('./inspect')
        await inspectCommand({ ...globalOptions(command), port: opts.port }, ctx)
      }),
  (program, ctx) =>
    program
      .command('mcp')
      .description('serve the MCP tools (capture, log, dream, augment, profile, notes, ...) over stdio')
      .action(async (_opts: unknown, command: Command) => {
        const { mcpCommand } = await import('./mcp')
        await mcpCommand(globalOptions(command), ctx)
      }),
]
