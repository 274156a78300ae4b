const HEADING = '## Use it as a library'

/** The code of the README's library example: the first ```ts block under "## Use it as a library". */
export function libraryExample(readme: string): string {
  const section = readme.indexOf(`\n${HEADING}\n`)
  if (section < 0) throw new Error(`README.md has no "${HEADING}" section`)
  const block = /```ts\n([\s\S]*?)\n```/.exec(readme.slice(section))
  if (!block?.[1]) throw new Error(`README.md's "${HEADING}" section has no \`\`\`ts block`)
  return `${block[1]}\n`
}
