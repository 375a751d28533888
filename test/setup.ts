// Unit tests call pattern and filter code directly, as the library does after importing src/index.ts.
import { loadGlobs } from '../src/event/globs.ts'

await loadGlobs()
