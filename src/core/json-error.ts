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

/** `line 3, column 5: expected a comma` for a text JSON.parse refused; `fallback` (the runtime's message) when the scan finds nothing. */
export function jsonSyntaxError(text: string, fallback: string): string {
  return locateJsonError(text)?.message ?? fallback
}

/** Where the first syntax error is, and what a tolerant parse still made of the text (the fields before it). */
export function locateJsonError(text: string): { message: string; partial: unknown } | undefined {
  const errors: ParseError[] = []
  const partial: unknown = parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false })
  const error = errors[0]
  if (error === undefined) return undefined
  return { message: parseErrorAt(text, error), partial }
}

/** One of jsonc-parser's errors in `text`, where and what (typed by its fields: the declarations never name jsonc-parser). */
export function parseErrorAt(text: string, error: { readonly error: number; readonly offset: number }): string {
  const before = text.slice(0, error.offset)
  const line = before.split('\n').length
  const column = error.offset - before.lastIndexOf('\n')
  const code = printParseErrorCode(error.error as ParseErrorCode)
  return `line ${line}, column ${column}: ${WHAT[code] ?? code}`
}
