// Node's builtin modules that hookrun loads lazily, each when first used, written once here.
// Functions, not static imports: a bundler hoists those, and every fire would pay to load each (node:crypto ~4 ms).
// Import only types from these modules elsewhere.

export const nodeCrypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto') as typeof import('node:crypto')

export const nodeChildProcess = (): typeof import('node:child_process') =>
  process.getBuiltinModule('node:child_process') as typeof import('node:child_process')

export const nodeOs = (): typeof import('node:os') => process.getBuiltinModule('node:os') as typeof import('node:os')

export const nodeUtil = (): typeof import('node:util') => process.getBuiltinModule('node:util') as typeof import('node:util')

export const nodeTty = (): typeof import('node:tty') => process.getBuiltinModule('node:tty') as typeof import('node:tty')

export const nodeHttp = (): typeof import('node:http') => process.getBuiltinModule('node:http') as typeof import('node:http')
