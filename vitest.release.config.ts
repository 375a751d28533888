import { defineConfig } from 'vitest/config'

// The release as users get it (test/release/): `npm run test:release` builds this machine's release
// target (bun build.ts --release --targets host), then installs it from dist/ the three ways a user
// does (npm, install.sh, the Node bundle) and runs the README's quick start with each.
export default defineConfig({
  test: {
    include: ['test/release/**/*.release.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    maxWorkers: 1,
  },
})
