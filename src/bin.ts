#!/usr/bin/env node
import process from 'node:process'
import { main } from './cli.ts'

const write = (stream: NodeJS.WriteStream) => (text: string) =>
  new Promise<void>((resolveWrite) => {
    stream.write(text, () => resolveWrite())
  })

main(process.argv.slice(2), {
  stdout: write(process.stdout),
  stderr: write(process.stderr),
  env: process.env,
  stdin: process.stdin,
}).then((code) => process.exit(code))
