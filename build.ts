/// <reference types="bun" />
/**
 * Build hookrun (run with Bun: `bun build.ts`):
 *   dist/hookrun       the single-file binary for this machine (bun build --compile)
 *   dist/hookrun.mjs   the Node bundle that package.json's `bin` points at (Node 20+)
 *   dist/index.mjs     the library bundle for `import { fire } from "hookrun"`
 * The version is compiled in: src/cli.ts imports it from package.json and the bundler inlines it.
 */
import { chmod, mkdir, rm } from 'node:fs/promises'

// Bun's type package is not a dependency; this is the one Bun API the build uses.
declare const Bun: { build(options: Record<string, unknown>): Promise<unknown> }

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
  })

  await Bun.build({
    entrypoints: ['./src/bin.ts'],
    outdir: './dist',
    naming: 'hookrun.mjs',
    target: 'node',
    format: 'esm',
    minify: true,
  })
  await chmod('dist/hookrun.mjs', 0o755)

  await Bun.build({
    entrypoints: ['./src/index.ts'],
    outdir: './dist',
    naming: 'index.mjs',
    target: 'node',
    format: 'esm',
  })
}

await build()
console.log('built dist/hookrun, dist/hookrun.mjs, dist/index.mjs')
