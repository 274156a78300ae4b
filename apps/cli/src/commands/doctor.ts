import type { LocalEmbeddingModel } from '@hymem/extraction/local'
import { type HyMemConfig, maskSecrets, resolveLocalModel } from 'hymem'
import { loadConfig } from '../config'
import { embedderInfo } from '../embedder-info'
import { EXIT_FAILURE, ExitError } from '../exit-error'
import { createStyle } from '../format/style'
import { renderTable } from '../format/table'
import { type CliContext, colorEnabled } from '../io'
import type { GlobalOptions } from '../program'
import {
  checkCanonicalDrift,
  checkEmbeddingDrift,
  checkPostgresStore,
  checkStore,
  probeEndpoint,
} from './doctor-checks'
import { checkLanguages } from './doctor-languages'
import { checkFilePermissions } from './doctor-privacy'
import { describeSettings } from './doctor-settings'
import {
  DOCTOR_TIMEOUT_MS,
  type DoctorCheck,
  type DoctorReport,
  type EmbedderInfo,
  type EndpointProbe,
} from './doctor-types'

/** Options of `hymem doctor`. */
export interface DoctorOptions extends GlobalOptions {
  /** Print the report as JSON. */
  readonly json?: boolean
  /** Skip every network check. */
  readonly offline?: boolean
  /** Merge drifted canonical names (opt-in; doctor otherwise only reports them). */
  readonly repairCanonical?: boolean
  /** Per-endpoint timeout. @default 5000 */
  readonly timeoutMs?: number
}

/** Runs every preflight check and returns the report (never throws for a failed check), URL secrets masked. */
export async function collectDoctorReport(options: DoctorOptions, ctx: CliContext): Promise<DoctorReport> {
  const { config, warnings, errors } = loadConfig(options, ctx)
  const checks: DoctorCheck[] = []
  for (const line of errors) checks.push({ name: 'config', status: 'fail', detail: line })
  for (const line of warnings) {
    if (/^no LLM key|^no embeddings/.test(line)) continue // reported by the extractor/embedder lines
    checks.push({ name: 'config', status: 'warn', detail: line })
  }
  if (checks.length === 0) {
    const set = Object.keys(ctx.env).filter(
      (name) => name.startsWith('HYMEM_') && ctx.env[name]?.trim(),
    ).length
    checks.push({ name: 'config', status: 'ok', detail: `environment parsed (${set} HYMEM_* variables set)` })
  }

  // Looked at before the store check opens the database, which adds its own WAL and SHM for a moment.
  const permissions = checkFilePermissions({
    root: config.root,
    databasePath: config.databaseUrl === null ? config.databasePath : null,
  })
  const { checks: storeChecks, store } =
    config.databaseUrl === null
      ? checkStore(config.databasePath, ctx.clock)
      : await checkPostgresStore(config.databaseUrl, ctx.clock)
  checks.push(...storeChecks, permissions)
  let localModel: LocalEmbeddingModel | undefined
  let embedder = embedderInfo(config)
  if (store) {
    try {
      if (config.embedding.provider === 'local') {
        localModel = await resolveLocalModel(store, config.embedding.localModel)
        embedder = embedderInfo(config, localModel)
      }
      checks.push(...(await checkEmbeddingDrift(store, embedder)))
      checks.push(...(await checkCanonicalDrift(store, options.repairCanonical === true)))
      checks.push(...(await checkLanguages(store, config.workspaceId, embedder)))
    } finally {
      await store.close()
    }
  }
  checks.push(extractorCheck(config), embedderCheck(embedder, config))
  checks.push(...(await endpointChecks(config, options, ctx)))

  const ok = checks.every((c) => c.status !== 'fail')
  const settings = describeSettings(config, ctx.env, options, localModel)
  // Checks quote URLs from the environment and from the servers' answers: none may print a password.
  return {
    ok,
    checks: checks.map((check) => ({ ...check, detail: maskSecrets(check.detail) })),
    settings: Object.fromEntries(Object.entries(settings).map(([key, value]) => [key, maskSecrets(value)])),
  }
}

function extractorCheck(config: HyMemConfig): DoctorCheck {
  if (config.llm.apiKey === null) {
    return {
      name: 'extractor',
      status: 'warn',
      detail: 'no LLM key: using the rule-based extractor (set HYMEM_LLM_API_KEY to extract with an LLM)',
    }
  }
  return { name: 'extractor', status: 'ok', detail: `llm:${config.llm.model} at ${config.llm.baseUrl}` }
}

function embedderCheck(embedder: EmbedderInfo | null, config: HyMemConfig): DoctorCheck {
  if (embedder === null) {
    return {
      name: 'embedder',
      status: 'warn',
      detail: 'none: search is keyword + graph + recency only (HYMEM_EMBEDDING_PROVIDER=local works offline)',
    }
  }
  const dims = embedder.dimensions === null ? '' : `, ${embedder.dimensions}-d`
  const where =
    embedder.provider === 'openai-compatible'
      ? ` at ${config.embedding.baseUrl}`
      : embedder.provider === 'local'
        ? ', offline'
        : ''
  const detail = `${embedder.name} (${embedder.model}${dims}${where})`
  return embedder.provider === 'fake'
    ? { name: 'embedder', status: 'warn', detail: `${detail}: test embeddings, recall will be poor` }
    : { name: 'embedder', status: 'ok', detail }
}

async function endpointChecks(
  config: HyMemConfig,
  options: DoctorOptions,
  ctx: CliContext,
): Promise<DoctorCheck[]> {
  const probes: EndpointProbe[] = []
  if (config.llm.apiKey !== null) {
    probes.push({
      name: 'llm endpoint',
      baseUrl: config.llm.baseUrl,
      apiKey: config.llm.apiKey,
      keyVariable: config.llm.apiKeySource ?? 'HYMEM_LLM_API_KEY',
    })
  }
  const { embedding } = config
  if (
    embedding.provider === 'openai-compatible' &&
    !(embedding.baseUrl === config.llm.baseUrl && embedding.apiKey === config.llm.apiKey)
  ) {
    probes.push({
      name: 'embedding endpoint',
      baseUrl: embedding.baseUrl,
      apiKey: embedding.apiKey ?? '',
      keyVariable: embedding.apiKeySource ?? 'HYMEM_EMBEDDING_API_KEY',
    })
  }
  if (options.offline) {
    return probes.map((p) => ({ name: p.name, status: 'ok', detail: `${p.baseUrl} not checked (--offline)` }))
  }
  const fetch = ctx.fetch ?? globalThis.fetch
  const timeoutMs = options.timeoutMs ?? DOCTOR_TIMEOUT_MS
  return Promise.all(probes.map((probe) => probeEndpoint(probe, { fetch, timeoutMs })))
}

/** Prints the report (a table, or JSON) and stops with exit 1 when a check failed. */
export async function doctor(options: DoctorOptions, ctx: CliContext): Promise<DoctorReport> {
  const report = await collectDoctorReport(options, ctx)
  if (options.json) {
    ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  } else {
    ctx.stdout.write(renderDoctor(report, colorEnabled(ctx)))
  }
  const failed = report.checks.filter((c) => c.status === 'fail').length
  if (failed > 0) {
    throw new ExitError(
      EXIT_FAILURE,
      `${failed} check${failed === 1 ? '' : 's'} failed: fix the "fail" lines above`,
    )
  }
  return report
}

/** The human-readable doctor output. */
export function renderDoctor(report: DoctorReport, color: boolean): string {
  const style = createStyle(color)
  const paint = { ok: style.green, warn: style.yellow, fail: style.red }
  const checks = renderTable(
    report.checks.map((c) => [c.status, c.name, c.detail]),
    { decorate: (cell, row, column) => (column === 0 ? paint[report.checks[row]!.status](cell) : cell) },
  )
  const settings = renderTable(Object.entries(report.settings))
  const count = (status: string) => report.checks.filter((c) => c.status === status).length
  const summary = `${count('ok')} ok, ${count('warn')} warn, ${count('fail')} fail`
  return `${style.bold('Checks')}\n${checks}\n${style.bold('Settings')}\n${settings}\n${summary}\n`
}
