export { readManagedFile, readOutsideSection, readSection, writeSection } from './managed-file'
export { sectionMarkers } from './section-text'
