// Where and why a JSON text does not parse, the same under every runtime (their own messages differ).
import { parse, type ParseError, type ParseErrorCode, printParseErrorCode } from 'jsonc-parser'

const WHAT: Readonly<Record<string, string>> = {
  PropertyNameExpected: 'expected a property name in double quotes (JSON allows no trailing comma)',
  ValueExpected: 'expected a value (JSON allows no trailing comma)',
  CommaExpected: 'expected a comma',
  ColonExpected: 'expected a colon',
  CloseBraceExpected: 'expected a closing }',
  CloseBracketExpected: 'expected a closing ]',
  EndOfFileExpected: 'unexpected text after the end of the JSON value',
  InvalidSymbol: 'unexpected character',
  InvalidCommentToken: 'JSON allows no comments',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfComment: 'a comment is not closed',
  InvalidEscapeCharacter: 'invalid escape in a string',
  InvalidCharacter: 'a control character in a string (escape it)',
}

/** jsonc-parser's error code in words (`InvalidCommentToken` → JSON allows no comments). */
function describeJsonError(code: string): string {
  return WHAT[code] ?? code
}

/**
 * `line 3, column 5: expected a comma` for a text JSON.parse refused; `fallback` (the runtime's
 * own message) when the stricter-than-needed scan finds nothing.
 */
export function jsonSyntaxError(text: string, fallback: string): string {
  return locateJsonError(text)?.message ?? fallback
}

/**
 * Where the first syntax error is (`line 3, column 5: expected a comma`), and what a tolerant
 * parse still made of the text (the fields before the error), or nothing if it finds none.
 */
export function locateJsonError(text: string): { message: string; partial: unknown } | undefined {
  const errors: ParseError[] = []
  const partial: unknown = parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false })
  const error = errors[0]
  if (error === undefined) return undefined
  return { message: parseErrorAt(text, error), partial }
}

/**
 * One of jsonc-parser's errors in `text`, where and what: `line 3, column 5: expected a comma`. The
 * error is typed by the fields read, so the library's declarations never name jsonc-parser, a
 * package bundled in and not installed with hookrun.
 */
export function parseErrorAt(text: string, error: { readonly error: number; readonly offset: number }): string {
  const before = text.slice(0, error.offset)
  const line = before.split('\n').length
  const column = error.offset - before.lastIndexOf('\n')
  return `line ${line}, column ${column}: ${describeJsonError(printParseErrorCode(error.error as ParseErrorCode))}`
}
