import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Glob matching loads lazily in hookrun (src/event/globs.ts); unit tests call its users directly.
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end cases spawn real processes and time them; two cores, so keep files few at once.
    maxWorkers: 2,
  },
})
