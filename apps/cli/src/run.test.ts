import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../test/harness'
import { CLI_VERSION } from './program'
import { runCli } from './run'

describe('runCli', () => {
  it('prints usage and exits 2 for an unknown command', async () => {
    const { ctx, stdout, stderr } = captureContext()
    expect(await runCli(['frobnicate'], ctx)).toBe(2)
    expect(stdout()).toBe('')
    // The full help text is pinned once, by the --help test below.
    const help = captureContext()
    await runCli(['--help'], help.ctx)
    expect(help.stdout()).toContain('Usage: hymem [options] [command]')
    expect(stderr()).toBe(`error: unknown command 'frobnicate'\n\n${help.stdout()}`)
  })

  it('masks URL passwords and secret parameters in everything it prints to stderr', async () => {
    const { ctx, stderr } = captureContext()
    const to = 'ftp://me:pw-userinfo@files.example/dump?token=pw-token&mode=full'
    expect(await runCli(['migrate', '--from', 'a.sqlite', '--to', to], ctx)).toBe(1)
    expect(stderr()).toMatchInlineSnapshot(`
      "error: --to must be a SQLite file or a postgres:// URL, not ftp://me:****@files.example/dump?token=****&mode=full
      "
    `)
  })

  it('exits 2 for an unknown flag', async () => {
    const { ctx, stderr } = captureContext()
    expect(await runCli(['doctor', '--frob'], ctx)).toBe(2)
    expect(stderr()).toMatchInlineSnapshot(`
      "error: unknown option '--frob'
      Usage: hymem doctor [options]
      (run "hymem doctor --help" for the options)
      "
    `)
  })

  it('exits 2 for a bad flag value', async () => {
    const { ctx, stderr } = captureContext()
    expect(await runCli(['doctor', '--timeout', 'soon'], ctx)).toBe(2)
    expect(stderr()).toMatchInlineSnapshot(`
      "error: option '--timeout <ms>' argument 'soon' is invalid. expected a whole number of at least 1.
      Usage: hymem doctor [options]
      (run "hymem doctor --help" for the options)
      "
    `)
  })

  it('prints help and exits 2 with no command, 0 with --help', async () => {
    const none = captureContext()
    expect(await runCli([], none.ctx)).toBe(2)
    expect(none.stderr()).toContain('Usage: hymem [options] [command]')
    const help = captureContext()
    expect(await runCli(['--help'], help.ctx)).toBe(0)
    expect(help.stdout()).toMatchInlineSnapshot(`
      "Usage: hymem [options] [command]

      Local-first memory for AI agents: log, dream, augment.

      Options:
        -v, --version                     output the version number
        --root <dir>                      folder of hymem.sqlite, MEMORY.md and
                                          USER.md (overrides HYMEM_ROOT)
        --workspace <id>                  workspace to use (overrides HYMEM_WORKSPACE)
        -h, --help                        display help for command

      Commands:
        demo [options]                    log a sample conversation, dream it on the
                                          embedded defaults, and show what augment
                                          returns
        doctor [options]                  check the configuration, database, vectors,
                                          drift, extractor, embedder and endpoints
        capture [options] <file>          log a conversation file: JSONL, one
                                          {"session_id","role" or
                                          "peer_id","content","created_at"?} a line,
                                          or a JSON array
        dream [options]                   run one dreaming cycle: extract facts,
                                          episodes and procedures, update USER.md and
                                          MEMORY.md
        worker [options]                  dream every workspace with pending work on
                                          the configured database, in turn, until
                                          SIGTERM or Ctrl-C (run several: the dream
                                          locks share the work)
        augment [options] <text...>       show the context retrieved for a message:
                                          facts with reason codes, hits, episodes,
                                          procedures, notes
        history [options] <entity...>     how an entity's facts changed: supersede
                                          chains, retractions, evidence, when each
                                          became true and was learned
        conflicts [options]               facts that contradict each other (one
                                          subject, competing objects or opposing
                                          predicates)
        notes [options] [id]              list the explicit notes (newest first), or
                                          show one by id
        stats [options]                   store counts, dream history and search-log
                                          figures (volume, empty rate, latency,
                                          misses)
        forget [options] <what> <ids...>  forget for good: a session, messages, a
                                          peer's messages, a note, a fact or a
                                          workspace, with everything derived from it;
                                          prints the receipt
        export [options]                  write the memory as JSONL: every workspace,
                                          or only --workspace
        import [options] <file>           restore a JSONL export; existing rows are
                                          skipped, missing vectors are embedded
        migrate [options]                 copy a whole memory between a SQLite file
                                          and a PostgreSQL URL, then check every count
        reindex [options]                 rebuild the full-text index and re-embed
                                          everything with the configured embedding
                                          model
        inspect [options]                 open the memory inspector: serve the graph,
                                          facts, questions and history on loopback
        mcp                               serve the MCP tools (capture, log, dream,
                                          augment, profile, notes, ...) over stdio
        help [command]                    display help for command
      "
    `)
  })

  it("prints a command's help with `help <command>` and exits 0", async () => {
    const { ctx, stdout } = captureContext()
    expect(await runCli(['help', 'capture'], ctx)).toBe(0)
    expect(stdout()).toMatchInlineSnapshot(`
      "Usage: hymem capture [options] <file>

      log a conversation file: JSONL, one {"session_id","role" or
      "peer_id","content","created_at"?} a line, or a JSON array

      Arguments:
        file        the file, or - for stdin

      Options:
        --dream     dream right after logging
        --json      print the result as JSON
        -h, --help  display help for command
      "
    `)
  })

  it('prints the version', async () => {
    const { ctx, stdout } = captureContext()
    expect(await runCli(['--version'], ctx)).toBe(0)
    expect(stdout()).toBe(`${CLI_VERSION}\n`)
  })
})

describe('global options', () => {
  it('names the flag, not the variable, when a flag value is bad (usage, exit 2)', async () => {
    const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: '/tmp/unused' } })
    expect(await runCli(['stats', '--workspace', 'no spaces please'], ctx)).toBe(2)
    expect(stderr()).toMatchInlineSnapshot(`
      "error: --workspace must be 1-128 letters, digits, \`_\`, \`.\`, \`:\` or \`-\`, starting with a letter or digit, e.g. --workspace=default (got "no spaces please") (run "hymem doctor" to see the whole configuration)
      "
    `)
  })
})

describe('expected errors from the packages', () => {
  it('print one line and exit 1 when the root cannot hold a database', async () => {
    const { dir, cleanup } = tempDir()
    try {
      const file = join(dir, 'a-file')
      writeFileSync(file, 'not a folder')
      const { ctx, stderr } = captureContext({ env: { HYMEM_ROOT: file } })
      expect(await runCli(['stats'], ctx)).toBe(1)
      expect(stderr().split(dir).join('<dir>')).toMatchInlineSnapshot(`
        "error: cannot create the directory for <dir>/a-file/hymem.sqlite: <dir>/a-file is a file, not a folder; choose a writable HYMEM_ROOT
        "
      `)
    } finally {
      cleanup()
    }
  })
})
