#!/usr/bin/env node
import process from 'node:process'
import { main } from './cli.ts'
import { readStdin } from './payload/stdin.ts'

// Streams are created on first use only: most events write one line to stdout and none to stderr.
const write = (stream: () => NodeJS.WriteStream) => (text: string) =>
  new Promise<void>((resolveWrite) => {
    stream().write(text, () => resolveWrite())
  })

main(process.argv.slice(2), {
  stdout: write(() => process.stdout),
  stderr: write(() => process.stderr),
  env: process.env,
  stdin: { [Symbol.asyncIterator]: readStdin },
}).then((code) => process.exit(code))
