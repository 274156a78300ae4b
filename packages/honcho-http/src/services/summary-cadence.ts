import type { JsonObject } from '@hymem/core-store'

/** When Honcho summarises a session: a short summary every `short` messages, a long one every `long`. */
interface SummaryCadence {
  readonly enabled: boolean
  readonly short: number
  readonly long: number
}

/** Honcho's global defaults (summary on, 20 / 60 messages). */
const DEFAULT_SUMMARY_CADENCE: SummaryCadence = { enabled: true, short: 20, long: 60 }

type Settings = { enabled?: boolean; short?: number; long?: number }

function settingsOf(configuration: JsonObject): Settings {
  const summary = configuration.summary
  if (typeof summary !== 'object' || summary === null || Array.isArray(summary)) return {}
  const {
    enabled,
    messages_per_short_summary: short,
    messages_per_long_summary: long,
  } = summary as JsonObject
  const count = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined)
  const settings: Settings = {}
  if (typeof enabled === 'boolean') settings.enabled = enabled
  if (count(short) !== undefined) settings.short = count(short)!
  if (count(long) !== undefined) settings.long = count(long)!
  return settings
}

/**
 * The resolved `summary` configuration: each key from the session's settings, else the workspace's, else the
 * global default (Honcho resolves key by key, message > session > workspace > global; messages carry no
 * summary settings).
 */
export function summaryCadence(workspace: JsonObject, session: JsonObject): SummaryCadence {
  return { ...DEFAULT_SUMMARY_CADENCE, ...settingsOf(workspace), ...settingsOf(session) }
}

/**
 * The position (1-based, in the session) of the last message a summary written every `every` messages
 * covers, once `summarised` messages have been summarised; 0 when none is due yet.
 */
export function cadencePoint(summarised: number, every: number): number {
  return Math.floor(summarised / every) * every
}
