// Node's builtin modules that hookrun loads lazily, each when first used, written once here.
/**
 * Why these are functions and not `import … from 'node:crypto'`: a bundler hoists every static
 * import of a builtin to the top of the bundle, so the compiled binary would load each of them
 * at start, on every `fire`, and a fire pays for each builtin module it loads (node:crypto
 * ~4 ms in the compiled binary, node:tty or node:child_process their stream stacks ~2 ms).
 * Most fires hash nothing, spawn through Bun and print no table: they load none of these.
 * `process.getBuiltinModule` returns the module already loaded after its first call.
 * Import only types from these modules elsewhere (`import type`), never values.
 */

export const nodeCrypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto') as typeof import('node:crypto')

export const nodeChildProcess = (): typeof import('node:child_process') =>
  process.getBuiltinModule('node:child_process') as typeof import('node:child_process')

export const nodeOs = (): typeof import('node:os') => process.getBuiltinModule('node:os') as typeof import('node:os')

export const nodeUtil = (): typeof import('node:util') => process.getBuiltinModule('node:util') as typeof import('node:util')

export const nodeTty = (): typeof import('node:tty') => process.getBuiltinModule('node:tty') as typeof import('node:tty')

export const nodeHttp = (): typeof import('node:http') => process.getBuiltinModule('node:http') as typeof import('node:http')
