// The layer rules of ARCHITECTURE.md, checked by `npm run check:deps` (and CI): every stage
// imports downward only, so a reader can start at src/core/ and climb.

/** Folders of src/, lowest first. A folder may import its own and lower folders only. */
const LAYERS = [
  ['core'], // the pipeline's vocabulary, protocol schemas, errors, the user's folders
  ['payload'], // reading the payload
  ['agents'], // one module per agent: its names, events, tools, payloads and answers (registry.ts lists them)
  ['event'], // event names, aliases, tools and patterns, derived from the agents
  ['discover'], // where each layer's files are (nothing is read or run)
  ['trust'], // whether a project's material may run
  ['config'], // hooks.json layers: parse, validate, merge
  ['select'], // which hooks match an event
  ['run'], // one process per hook
  ['answer'], // a hook's answer, the decision, rendering it
  ['folders'], // hook folders and plugins: executables asked which events they serve
  ['audit', 'telemetry'], // the audit log; OpenTelemetry export
]

const higherThan = (index) => LAYERS.slice(index + 1).flat()

const layerRules = LAYERS.flatMap((folders, index) =>
  higherThan(index).length === 0
    ? []
    : folders.map((folder) => ({
        name: `layer-${folder}`,
        severity: 'error',
        comment: `src/${folder}/ imports only from its own layer and below (ARCHITECTURE.md)`,
        from: { path: `^src/${folder}/` },
        to: { path: `^src/(${higherThan(index).join('|')}|explain|library|install|commands|serve)/|^src/(fire|pipeline|dialect|cli|index|unstable|bin)\\.ts$` },
      })),
)

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'stages import downward only', from: {}, to: { circular: true } },
    ...layerRules,
    {
      name: 'core-is-self-contained',
      severity: 'error',
      comment: 'src/core/ imports nothing of the project outside itself',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'commands-only-from-cli',
      severity: 'error',
      comment: 'command implementations are reached through the CLI only; the library never loads them',
      from: { path: '^src/', pathNot: ['^src/cli\\.ts$', '^src/commands/'] },
      to: { path: '^src/commands/' },
    },
    {
      name: 'agents-do-not-run',
      severity: 'error',
      comment: 'an agent module translates payloads and decisions; it never runs hooks',
      from: { path: '^src/agents/' },
      to: { path: '^src/(run|folders|config|trust)/|^src/fire\\.ts$' },
    },
    {
      name: 'entry-points-are-not-imported',
      severity: 'error',
      comment: 'cli.ts, bin.ts, index.ts and unstable.ts sit on top; nothing in src/ imports them (bin.ts starts the CLI)',
      from: { path: '^src/', pathNot: '^src/bin\\.ts$' },
      to: { path: '^src/(cli|bin|index|unstable)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
