import { findLooseMemoryFiles, type LoosePermission, type MemoryLocation } from 'hymem'
import type { DoctorCheck } from './doctor-types'

const NAME = 'file permissions'

/**
 * Warns when other local users can reach the memory's folder or files, with the `chmod` that makes them
 * private (HyMem creates them 0700 / 0600 but never changes the mode of what already exists).
 */
export function checkFilePermissions(location: MemoryLocation): DoctorCheck {
  const loose = findLooseMemoryFiles(location)
  if (loose.length === 0) {
    return { name: NAME, status: 'ok', detail: 'the memory folder and files are private to their owner' }
  }
  const listed = loose.map((entry) => `${entry.path} (${entry.mode.toString(8)})`).join(', ')
  const [what, them] = loose.length === 1 ? ['1 memory path', 'it'] : [`${loose.length} memory paths`, 'them']
  return {
    name: NAME,
    status: 'warn',
    detail: `other local users can open ${what}: ${listed}; make ${them} private: ${chmodCommand(loose)}`,
  }
}

function chmodCommand(loose: readonly LoosePermission[]): string {
  const chmod = (mode: string, kind: LoosePermission['kind']) => {
    const paths = loose.filter((entry) => entry.kind === kind).map((entry) => shellQuote(entry.path))
    return paths.length === 0 ? [] : [`chmod ${mode} ${paths.join(' ')}`]
  }
  return [...chmod('700', 'directory'), ...chmod('600', 'file')].join(' && ')
}

function shellQuote(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`
}
