// The zod schemas of the settings a hooks.json may carry besides its hooks (the audit log,
// telemetry, trusted folders, the managed layer's policy, http hooks' limits); schema.ts puts them
// into the file's schema.
import { z } from 'zod'

/** An http(s) URL: an http hook's, a collector's, a policy's. */
export const HttpUrlSchema = z
  .string()
  .regex(/^https?:\/\/[^\s/?#]+/i, 'expected an http:// or https:// URL')
  .meta({ description: 'http hook: POST the payload JSON here and read the answer from the response body.' })

const TrustedFoldersSchema = z.array(z.string()).meta({
  description:
    "User config only. Folders whose project hooks run without 'hookrun trust': absolute paths or ~/…, globs allowed ('~/src/mine/*'). A project is trusted when its root or a folder above it matches.",
})

const LogSchema = z
  .strictObject({
    path: z.string().min(1).meta({ description: 'The audit log file (JSON Lines); ~/… and paths relative to this config file allowed.' }),
    chain: z.boolean().optional().meta({
      description:
        "Tamper-evident: each line carries seq and the SHA-256 of the line before it; 'hookrun log verify' finds an edit or a cut.",
    }),
  })
  .meta({ description: "User config only. Append one JSON line per fire (event, each hook's outcome, the decision), secrets redacted." })

const TelemetrySchema = z
  .strictObject({
    endpoint: HttpUrlSchema.optional().meta({
      description:
        'OTLP/HTTP endpoint of a collector, e.g. http://localhost:4318 (/v1/traces is added); default: OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT.',
    }),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'Headers for the collector (an API key); default: OTEL_EXPORTER_OTLP_HEADERS.' }),
    serviceName: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "service.name of the spans; default: OTEL_SERVICE_NAME, else 'hookrun'." }),
    attributes: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .meta({ description: 'Resource attributes on every span, e.g. {"team": "payments"}; OTEL_RESOURCE_ATTRIBUTES adds more.' }),
  })
  .meta({
    description:
      'User or managed config: every fire becomes an OpenTelemetry trace (a span for the fire, one per hook), exported over OTLP/HTTP after the decision by a background process. The OTEL_EXPORTER_OTLP_* variables turn it on too.',
  })

const PolicySchema = z
  .strictObject({
    url: HttpUrlSchema.meta({
      description:
        'Where the signed policy is served: {"document": "<hooks.json text>", "signature": "<base64 Ed25519>"} (hookrun policy sign makes one).',
    }),
    publicKey: z
      .string()
      .min(1)
      .meta({ description: 'The Ed25519 public key the policy must be signed with: PEM, or its 32 raw bytes in base64.' }),
    refreshSeconds: z
      .number()
      .positive()
      .optional()
      .meta({ description: 'How long a copy stays fresh when the server sends no Cache-Control max-age (default 300).' }),
    required: z.boolean().optional().meta({
      description:
        'true: until a good copy is cached, events that can be stopped are blocked (the policy never fails open); default: they run without it, with a warning.',
    }),
  })
  .meta({
    description:
      'Managed config only: a remote, signed hooks.json that runs right after the managed hooks. Fires use the cached copy and refresh it in the background; a bad signature is refused and the last good copy kept.',
  })

const AllowedHttpHookUrlsSchema = z.array(z.string().min(1)).meta({
  description:
    "URL patterns http hooks may POST to ('*' matches any characters, e.g. https://hooks.example.com/*); a hook whose URL matches none does not run, and on an event that can be stopped it blocks. [] allows none. Each layer that sets it (managed, user, a trusted project) narrows it: a URL must match a pattern of every one.",
})

const HttpHookAllowedEnvVarsSchema = z.array(z.string().regex(/^[A-Za-z_]\w*$/, 'expected an environment variable name')).meta({
  description:
    "Environment variables an http hook's headers may expand: a hook's allowedEnvVars outside this list expand to empty, with a warning. Each layer that sets it (managed, user, a trusted project) narrows it.",
})

const AllowManagedHooksOnlySchema = z.boolean().meta({
  description:
    "Managed config only: true runs the managed layer's hooks and ignores every other layer's (user, project, local, hook folders, plugins).",
})

/** The settings a config file may carry besides its hooks, each checked alone, in the order the file's schema lists them. */
export const SETTINGS = {
  trustedFolders: TrustedFoldersSchema,
  log: LogSchema,
  allowManagedHooksOnly: AllowManagedHooksOnlySchema,
  telemetry: TelemetrySchema,
  policy: PolicySchema,
  allowedHttpHookUrls: AllowedHttpHookUrlsSchema,
  httpHookAllowedEnvVars: HttpHookAllowedEnvVarsSchema,
}

export type FileSettings = { readonly [K in keyof typeof SETTINGS]?: z.output<(typeof SETTINGS)[K]> }
