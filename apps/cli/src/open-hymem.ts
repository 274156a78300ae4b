import { createHyMemFromConfig, type HyMem, type HyMemConfig } from 'hymem'
import { requireConfig } from './config'
import type { CliContext } from './io'
import { createLogSink } from './log-sink'
import type { GlobalOptions } from './program'

/**
 * Resolves the configuration, opens HyMem, runs `fn` and always closes it. Configuration notes (e.g. "no LLM
 * key") go to stderr unless `quiet`.
 */
export async function withHyMem<T>(
  global: GlobalOptions,
  ctx: CliContext,
  fn: (hymem: HyMem, config: HyMemConfig) => Promise<T>,
  options: { quiet?: boolean; dreamIn?: 'worker' } = {},
): Promise<T> {
  const config = requireConfig(global, ctx, options)
  const hymem = await openHyMem(config, ctx, options.dreamIn)
  try {
    return await fn(hymem, config)
  } finally {
    await hymem.close()
  }
}

/**
 * Opens HyMem for a resolved configuration with the context's clock, fetch and a stderr log sink. `worker`
 * dreams in a worker thread, unless the context injects a clock or fetch (they cannot cross into it).
 */
export function openHyMem(config: HyMemConfig, ctx: CliContext, dreamIn?: 'worker'): Promise<HyMem> {
  const injected = ctx.clock !== undefined || ctx.fetch !== undefined
  return createHyMemFromConfig(config, {
    log: createLogSink(config, ctx.env, ctx.stderr),
    ...(ctx.clock ? { clock: ctx.clock } : {}),
    ...(ctx.fetch ? { fetch: ctx.fetch } : {}),
    ...(dreamIn === 'worker' && !injected ? { dreamIn: 'worker' as const } : {}),
  })
}
