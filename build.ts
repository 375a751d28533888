/// <reference types="bun" />
/**
 * Build hookrun (run with Bun: `bun build.ts`):
 *   dist/hookrun       the single-file binary for this machine (bun build --compile)
 *   dist/hookrun.mjs   the Node bundle that package.json's `bin` points at (Node 20+)
 *   dist/index.mjs     the library bundle for `import { fire } from "hookrun"`
 * The version is compiled in: src/cli.ts imports it from package.json and the bundler inlines it.
 */
import type { BunPlugin } from 'bun'
import { chmod, mkdir, rm } from 'node:fs/promises'
import { resolve } from 'node:path'

// jsonc-parser's "main" is a UMD build whose require() calls a bundler cannot follow (the Node
// bundle then fails at run time); its ESM build bundles cleanly.
const jsoncParserEsm: BunPlugin = {
  name: 'jsonc-parser-esm',
  setup(build) {
    build.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path: resolve('node_modules/jsonc-parser/lib/esm/main.js') }))
  },
}

async function build(): Promise<void> {
  await rm('dist', { recursive: true, force: true })
  await mkdir('dist', { recursive: true })

  await Bun.build({
    entrypoints: ['./src/bin.ts'],
    compile: {
      outfile: './dist/hookrun',
      // A .env or bunfig.toml in the agent's working directory must change nothing.
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
    minify: true,
    bytecode: true,
    plugins: [jsoncParserEsm],
  })

  await Bun.build({
    entrypoints: ['./src/bin.ts'],
    outdir: './dist',
    naming: 'hookrun.mjs',
    target: 'node',
    format: 'esm',
    minify: true,
    plugins: [jsoncParserEsm],
  })
  await chmod('dist/hookrun.mjs', 0o755)

  await Bun.build({
    entrypoints: ['./src/index.ts'],
    outdir: './dist',
    naming: 'index.mjs',
    target: 'node',
    format: 'esm',
    plugins: [jsoncParserEsm],
  })
}

await build()
console.log('built dist/hookrun, dist/hookrun.mjs, dist/index.mjs')
