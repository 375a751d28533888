// Stage run, for http hooks: POST the payload JSON to the hook's URL and bring back the answer. node:http(s)
// rather than fetch: the body cap, the redirect rule and the timeout stay in our hands on every runtime.
import type { IncomingMessage } from 'node:http'
import { HEADER_VARIABLE } from '../config/lint.ts'
import type { HttpHookLimits, HttpRun, HttpTarget } from '../core/types.ts'

const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024
const MAX_REDIRECTS = 5

/** Header values with `$VAR` / `${VAR}` filled in for names in `allowedEnvVars`, empty for any other. */
function expandHeaders(
  headers: Readonly<Record<string, string>>,
  allowed: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    out[name] = value.replace(HEADER_VARIABLE, (_match, braced: string | undefined, bare: string | undefined) => {
      const variable = (braced ?? bare)!
      return allowed.includes(variable) ? (env[variable] ?? '') : ''
    })
  }
  return out
}

/** The `allowedHttpHookUrls` list that does not allow `url` (`*` matches anything; a bare origin also without its slash). */
function refusingUrlList(
  url: URL,
  limits: HttpHookLimits | undefined,
): { readonly patterns: readonly string[]; readonly file: string } | undefined {
  if (limits?.urls === undefined) return undefined
  const forms = url.pathname === '/' && url.search === '' && url.hash === '' ? [url.href, url.href.slice(0, -1)] : [url.href]
  return limits.urls.find(({ patterns }) => !patterns.some((pattern) => forms.some((form) => urlPattern(pattern).test(form))))
}

function urlPattern(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  )
}

/** The variables a hook's headers may expand, narrowed by every `httpHookAllowedEnvVars` list; a warning per one taken away. */
function allowedHeaderVariables(target: HttpTarget): { allowed: string[]; warnings: string[] } {
  const own = target.allowedEnvVars ?? []
  const lists = target.limits?.envVars ?? []
  const allowed = own.filter((name) => lists.every((list) => list.names.includes(name)))
  const warnings: string[] = []
  for (const [header, value] of Object.entries(target.headers ?? {})) {
    for (const match of value.matchAll(HEADER_VARIABLE)) {
      const name = (match[1] ?? match[2])!
      const refusing = own.includes(name) ? lists.find((list) => !list.names.includes(name)) : undefined
      if (refusing !== undefined)
        warnings.push(`header '${header}' uses $${name}, which httpHookAllowedEnvVars in ${refusing.file} does not allow: it is sent empty`)
    }
  }
  return { allowed, warnings }
}

interface Answered {
  readonly status: number
  readonly location?: string
  readonly body: string
  readonly tooBig: boolean
}

interface PostOptions {
  readonly timeoutMs: number
  /** Where allowed header variables come from. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Aborting ends the request (hookrun itself was interrupted). */
  readonly signal?: AbortSignal
  readonly userAgent: string
}

/** POST `body` to the hook's URL; never throws (a `failure` sentence instead). Headers go to the hook's own origin only. */
export async function postHook(target: HttpTarget, body: string, options: PostOptions): Promise<HttpRun> {
  const started = performance.now()
  const variables = allowedHeaderVariables(target)
  // Every outcome carries the header warnings: they are said on stderr whatever the answer.
  const done = (run: Omit<HttpRun, 'durationMs'>): HttpRun => ({
    ...run,
    ...(variables.warnings.length > 0 && { warnings: variables.warnings }),
    durationMs: Math.round(performance.now() - started),
  })
  const fail = (failure: string, status?: number) => done({ ...(status !== undefined && { status }), body: '', timedOut: false, failure })
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.timeoutMs)
  const onAbort = () => controller.abort()
  options.signal?.addEventListener('abort', onAbort, { once: true })
  const configured = expandHeaders(target.headers ?? {}, variables.allowed, options.env)
  const limit = target.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  let url = new URL(target.url)
  const origin = url.origin
  try {
    for (let hop = 0; ; hop++) {
      // Nothing is sent to a URL the limits do not allow, a redirect's included.
      const refusing = refusingUrlList(url, target.limits)
      if (refusing !== undefined) {
        const how = hop === 0 ? `posts to ${url.href}` : `was redirected to ${url.href}`
        const allowed = refusing.patterns.join(', ') || 'none allowed'
        return {
          ...fail(`${how}, which allowedHttpHookUrls in ${refusing.file} does not allow (${allowed}); nothing was sent`),
          refused: true,
        }
      }
      const headers = url.origin === origin ? configured : {}
      const answer = await post(url, body, { ...headers, 'user-agent': options.userAgent }, limit, controller.signal)
      if (answer.status >= 300 && answer.status < 400 && answer.location !== undefined) {
        const next = new URL(answer.location, url)
        if (!target.followRedirects)
          return fail(
            `answered HTTP ${answer.status}, a redirect to ${next.href}, which is not followed (followRedirects: false)`,
            answer.status,
          )
        if (hop >= MAX_REDIRECTS) return fail(`redirected more than ${MAX_REDIRECTS} times`, answer.status)
        if (url.protocol === 'https:' && next.protocol !== 'https:')
          return fail(`redirected from https to ${next.href}, which is not followed`, answer.status)
        url = next
        continue
      }
      if (answer.tooBig) return fail(`answered with more than ${limit} bytes (maxResponseBytes)`, answer.status)
      return done({ status: answer.status, body: answer.body, timedOut: false })
    }
  } catch (error) {
    if (timedOut) return done({ body: '', timedOut: true, failure: `did not answer within ${options.timeoutMs / 1000}s` })
    if (options.signal?.aborted) return fail(`was interrupted (${String(options.signal.reason)})`)
    return fail(`cannot reach ${url.href}: ${(error as Error).message}`)
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
  }
}

async function post(url: URL, body: string, headers: Record<string, string>, limit: number, signal: AbortSignal): Promise<Answered> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${url.protocol} is not http: or https:`)
  const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http')
  return new Promise((resolvePromise, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = []
        let size = 0
        let tooBig = false
        const status = res.statusCode ?? 0
        const location = typeof res.headers.location === 'string' ? res.headers.location : undefined
        res.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size <= limit) return void chunks.push(chunk)
          // Past the cap nothing more is read: the connection is dropped.
          tooBig = true
          res.destroy()
          resolvePromise({ status, location, body: '', tooBig })
        })
        res.once('end', () => resolvePromise({ status, location, body: new TextDecoder().decode(Buffer.concat(chunks)), tooBig }))
        res.once('error', reject)
      },
    )
    req.once('error', reject)
    // Not request's own `signal` option: Deno's node:http ignores it.
    const onAbort = () => {
      req.destroy()
      reject(new Error('aborted'))
    }
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    req.once('close', () => signal.removeEventListener('abort', onAbort))
    req.end(body)
  })
}
