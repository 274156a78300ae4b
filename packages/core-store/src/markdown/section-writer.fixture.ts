// Run by managed-file.test.ts in child processes: rewrites one managed section many times with a large,
// writer-specific body, to race other processes doing the same.
import { writeSection } from './managed-file'

const [file, writer, rounds] = process.argv.slice(2)
for (let round = 0; round < Number(rounds); round++) {
  await writeSection(file!, 'profile', `${writer} round ${round}\n${writer!.repeat(50_000)}`)
}
