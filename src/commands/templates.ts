/**
 * The policy library `hookrun init` turns on: one folder per policy in the package's `policies/`
 * (policy.json, the script, its `hookrun test` cases, a README), compiled into
 * `policy-library.json` by scripts/policies.ts so the binary and the bundles carry it. Scripts are
 * POSIX sh, read hookrun's HOOKRUN_* variables, and live beside the config
 * (`$HOOKRUN_CONFIG_DIR/scripts`), so the project can be moved or cloned.
 */
import library from './policy-library.json' with { type: 'json' }

export interface Template {
  readonly name: string
  readonly description: string
  /** The hooks.json entries the policy adds (none for a settings-only policy). */
  readonly hooks: readonly Record<string, unknown>[]
  /** Settings for the user's own hooks.json, if the template is one (some settings are user config only). */
  readonly userSettings?: Readonly<Record<string, unknown>>
  /** Enabled when `init` writes every template at once (intrusive ones start switched off). */
  readonly onByDefault: boolean
  /** Files relative to `.hookrun/`; `.sh` files are made executable. */
  readonly files: Readonly<Record<string, string>>
}

export const TEMPLATES: readonly Template[] = Object.entries(library as Record<string, Omit<Template, 'name'>>).map(([name, policy]) => ({
  name,
  ...policy,
}))
