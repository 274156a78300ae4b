import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The "trip" session holds words found nowhere else; the "work" session must survive whole. */
export const TRIP = [
  { role: 'user', content: 'I prefer Zanzibar beaches over any other island.' },
  { role: 'user', content: 'Our booking service uses Quetzalcoatl as its database.' },
  { role: 'assistant', content: 'Noted: the booking service runs on Quetzalcoatl.' },
] as const
export const WORK = [
  { role: 'user', content: 'We switched from MySQL to Postgres for the billing service.' },
  { role: 'user', content: 'I prefer pnpm over npm for every project.' },
] as const
/** Stems of the words only the trip session holds. */
export const FORGOTTEN = ['zanzib', 'quetzal']

/** Everything HyMem keeps on disk for the default workspace, lower-cased. */
export function bytesOnDisk(root: string): string {
  const files = ['hymem.sqlite', 'hymem.sqlite-wal', 'USER.md', 'MEMORY.md']
  return files
    .map((file) => {
      try {
        return readFileSync(join(root, file)).toString('latin1').toLowerCase()
      } catch {
        return ''
      }
    })
    .join('\n')
}
