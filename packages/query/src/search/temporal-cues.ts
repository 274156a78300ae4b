/** Longest message prefix read for time cues (characters). */
const MAX_SCAN_CHARS = 2000

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const

const WEEKDAY = '(?:mon|tues|wednes|thurs|fri|satur|sun)day'
const PERIOD = `(?:week|weekend|month|year|night|morning|evening|summer|winter|spring|fall|autumn|${WEEKDAY})`

/** A question about time: when, how long, since when, what year/month/date, how many days/weeks/... */
const ASKS_WHEN =
  /\b(?:when|how long|since when|what (?:year|month|date|day|time|week)|which (?:year|month|day|week)|how many (?:days|weeks|months|years))\b/i

/** A turn naming a time: relative ("yesterday", "last week", "two days ago"), a weekday, a month or a year. */
const NAMES_TIME = new RegExp(
  `\\b(?:yesterday|today|tonight|tomorrow|recently|lately|the other day|weekend|ago|(?:last|next|this|past|coming) ${PERIOD}|${WEEKDAY}|${MONTHS.join('|')}|(?:19|20)\\d\\d|\\d{1,2}(?:st|nd|rd|th))\\b`,
  'i',
)

const MONTH_MENTION = new RegExp(
  `\\b(${MONTHS.join('|')})\\b(?:\\s+\\d{1,2}(?:st|nd|rd|th)?\\b)?(?:,?\\s+((?:19|20)\\d\\d))?`,
  'gi',
)
const YEAR = /\b((?:19|20)\d\d)\b/g

/** Does the message ask about time ("When did…", "How long ago…", "What year…")? */
export function asksWhen(message: string): boolean {
  return ASKS_WHEN.test(message.slice(0, MAX_SCAN_CHARS))
}

/** Does the text name a time ("last week", "yesterday", "in May", "2023", "on Friday")? */
export function namesTime(text: string): boolean {
  return NAMES_TIME.test(text.slice(0, MAX_SCAN_CHARS))
}

/** A period as ISO instants, `to` exclusive. */
export interface Period {
  readonly from: string
  readonly to: string
}

/**
 * The period a message names, from its first to its last month or year: "in July 2022" → July 2022, "between
 * August 11 and August 15 2023" → August 2023, "in 2023" → 2023. A month without any year in the message
 * names no period (it cannot be placed). Null when nothing is named.
 */
export function namedPeriod(message: string): Period | null {
  const text = message.slice(0, MAX_SCAN_CHARS)
  const years = [...text.matchAll(YEAR)].map((match) => Number(match[1]))
  const months: { year: number; month: number }[] = []
  for (const match of text.matchAll(MONTH_MENTION)) {
    const month = MONTHS.indexOf((match[1] ?? '').toLowerCase() as (typeof MONTHS)[number])
    const year = match[2] ? Number(match[2]) : years.length === 1 ? years[0] : undefined
    if (year !== undefined && month >= 0) months.push({ year, month })
  }
  if (months.length > 0) {
    const keys = months.map(({ year, month }) => year * 12 + month)
    const first = Math.min(...keys)
    const last = Math.max(...keys)
    return {
      from: new Date(Date.UTC(Math.floor(first / 12), first % 12, 1)).toISOString(),
      to: new Date(Date.UTC(Math.floor(last / 12), (last % 12) + 1, 1)).toISOString(),
    }
  }
  if (years.length === 0) return null
  return {
    from: new Date(Date.UTC(Math.min(...years), 0, 1)).toISOString(),
    to: new Date(Date.UTC(Math.max(...years) + 1, 0, 1)).toISOString(),
  }
}
