// Secret redaction for anything hookrun writes to a log: values under secret-like names (JSON keys, `API_KEY=…`,
// `--token …`) and strings shaped like well-known credentials. Every pattern is linear: it runs on untrusted input.

export const REDACTED = '[REDACTED]'

const SECRET_WORD =
  /^(?:key|auth|authorization|cookie|pwd|credentials?|.*(?:token|secret|password|passwd|apikey|accesskey|secretkey|privatekey))$/

/** `API_KEY`, `apiKey`, `client-secret`, `password`, `GITHUB_TOKEN`: yes. `max_tokens`, `keyboard`: no. */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
  // Compounds written as one word count too: `apikey`, `accesstoken`.
  return words.some((word) => SECRET_WORD.test(word)) || SECRET_WORD.test(words.join(''))
}

export const TOKEN_SHAPES: readonly RegExp[] = [
  // To its END line, or to the end of the text when a cut took the END line away.
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[^-]*(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  // gitleaks rule facts: GitLab personal access tokens, Hugging Face user and org tokens.
  /\bglpat-[0-9A-Za-z_-]{20,}/g,
  /\b(?:hf_[A-Za-z]{34}|api_org_[A-Za-z]{34})\b/g,
  /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g,
  /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{20,}/g,
  /\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\bnpm_[A-Za-z0-9]{36}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  /\b(?<=[Bb]earer\s+)[A-Za-z0-9._~+/=-]{8,}/g,
]

const VALUE = `("[^"]*"|'[^']*'|[^\\s"',;&|}]+)`
/** `NAME=value`, `"name": "value"`, `Name: value`; a colon counts only before a space or a quote (not `https://…`). */
export const ASSIGNED = new RegExp(`(?<![\\w-])(["']?)([A-Za-z_][\\w-]*)\\1(\\s*=\\s*|\\s*:(?=[\\s"'])\\s*)${VALUE}`, 'g')
/** `--token value`, `--password=value` */
export const FLAG = new RegExp(`(?<![\\w-])(--?[A-Za-z][\\w-]*)(\\s+|=)${VALUE}`, 'g')
/** `scheme://user:password@host` */
export const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:)[^/\s@]+@/gi

/** Credentials on a command line where the flag alone does not say "secret" (`curl -u user:password`, `mysql -pPASSWORD`, …). */
export const COMMAND_SECRETS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(\bBasic\s+)[A-Za-z0-9+/=._-]{4,}/g, `$1${REDACTED}`],
  [/((?:^|[\s;&|(])curl\b[^\n;&|]*?\s(?:-u|--user)(?:\s+|=)["']?[^\s:"']*:)[^\s"']+/g, `$1${REDACTED}`],
  [/((?:^|[\s;&|(])(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n;&|]*?\s-p)[^\s"']+/g, `$1${REDACTED}`],
  [/((?:^|[\s;&|(])sshpass\s+-p\s*)[^\s"']+/g, `$1${REDACTED}`],
  [/((?:^|[\s;&|(])docker\s+login\b[^\n;&|]*?\s-p(?:\s+|=)?)[^\s"']+/g, `$1${REDACTED}`],
  [/(\baws\s+configure\s+set\s+(?:aws_secret_access_key|aws_session_token)\s+)[^\s"']+/g, `$1${REDACTED}`],
]

/** Something every pattern above needs: a text without it holds nothing to redact (one pattern instead of twenty to compile). */
export const MAY_HOLD_SECRET = /[-=:]|hf_|api_org_|gh[pousr]_|github_pat_|_live_|_test_|AKIA|ASIA|AIza|npm_|eyJ|earer|Basic|aws/

/** Redact secrets in a text. Callers bound its length (quoted values are scanned to their end). */
export function redactText(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text
  let out = text
  for (const [pattern, replacement] of COMMAND_SECRETS) out = out.replace(pattern, replacement)
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED)
  out = out.replace(URL_PASSWORD, `$1${REDACTED}@`)
  out = out.replace(ASSIGNED, (match, quote: string, name: string, separator: string) =>
    isSecretName(name) ? `${quote}${name}${quote}${separator}${REDACTED}` : match,
  )
  out = out.replace(FLAG, (match, flag: string, separator: string) => (isSecretName(flag) ? `${flag}${separator}${REDACTED}` : match))
  return out
}

/** Strings up to this length are redacted whole before being cut. */
const REDACT_WHOLE_MAX = 1024 * 1024

interface RedactLimits {
  /** Strings are cut to this many characters (after redaction). */
  readonly maxString: number
  /** At most this many values are visited; past it, the rest is left out. */
  readonly maxValues: number
}

/** A copy of a JSON value with secrets replaced and long strings cut. */
export function redactValue(value: unknown, limits: RedactLimits): unknown {
  let budget = limits.maxValues
  const text = (input: string) => {
    // Redacted before it is cut, so a secret that straddles the cut is still recognised whole;
    // past REDACT_WHOLE_MAX the text is cut first (a private key cut short is still caught).
    const redacted = redactText(
      input.length > Math.max(REDACT_WHOLE_MAX, limits.maxString + 256)
        ? input.slice(0, Math.max(REDACT_WHOLE_MAX, limits.maxString + 256))
        : input,
    )
    return redacted.length > limits.maxString ? `${redacted.slice(0, limits.maxString)}…` : redacted
  }
  const walk = (node: unknown): unknown => {
    if (--budget < 0) return '…'
    if (typeof node === 'string') return text(node)
    if (Array.isArray(node)) return node.map(walk)
    if (typeof node === 'object' && node !== null) {
      const out: Record<string, unknown> = {}
      for (const [key, child] of Object.entries(node)) out[key] = isSecretName(key) ? REDACTED : walk(child)
      return out
    }
    return node
  }
  return walk(value)
}
