// The policies `hookrun init` turns on: the package's `policies/`, compiled into policy-library.json by scripts/policies.ts.
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
