import { defineConfig } from 'vitest/config'

// The agent lab (test/agents/): real agent CLIs against a fake model on 127.0.0.1. `npm run test:agents`.
export default defineConfig({
  test: {
    include: ['test/agents/**/*.lab.ts'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    // Each agent is a heavy process on a 2-core machine, but a scenario spends much of its time
    // waiting (on a hook's timeout, on the agent's own turn loop): three agent files at a time.
    maxWorkers: 3,
  },
})
