/** An entity's canonical name as words (`ledgerly_api` → `ledgerly api`). */
export function entityLabel(name: string): string {
  return name.replace(/_/g, ' ')
}

/** A predicate as words (`deploys_to` → `deploys to`). */
export function predicateLabel(predicate: string): string {
  return predicate.replace(/_/g, ' ')
}

/** `2026-03-01T10:00:00.000Z` → `2026-03-01 10:00 UTC`. */
export function formatTime(iso: string | null): string {
  if (iso === null) return '—'
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso)
  return match ? `${match[1]} ${match[2]} UTC` : iso
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US')
}

export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s`
  return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`
}

export function formatShare(share: number): string {
  return `${Math.round(share * 100)}%`
}
