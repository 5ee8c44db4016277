// Action templates (docs/API.md#templates): `{{path}}` placeholders in the
// text of actions, filled from the fired event's context.
//
//   {{device.id}}  {{event.payload.attributes.plan}}  {{landmarks.entered.0}}
//   {{event.payload.counts["traffic cone"]}}   a key that is no bare word
//   {{.Device.ID}}                              the platform's Go spelling
//
// A path is a bare word (letters, digits, `_`, `-`) followed by `.word`,
// `[0]` or `["any key"]` (`['any key']` too; JSON string escapes inside).
// Words are matched case-insensitively when no key has the exact spelling.
//
// Two ways to render:
//   text  (subjects, messages, URLs, headers, bodies that are not JSON): a
//         value as text (objects as their JSON), a missing value as nothing.
//   JSON  (a webhook body sent as JSON): the template is JSON once each
//         placeholder is a value. A placeholder inside a JSON string is
//         replaced by the value's text, escaped for that string (missing:
//         nothing); elsewhere by the value as JSON (missing: null). The
//         result is always JSON; renderJsonBody checks it anyway.
//
// A placeholder whose syntax cannot be read is refused when the rule is
// saved (templateProblem); one stored before that check stays literal text,
// and a JSON body holding one cannot be rendered (TemplateRenderError).
import { CodedError, revivable } from '../../errors.js';

type Segment = string | number;

type Token = { literal: string } | { path: Segment[]; raw: string } | { bad: string };

const WORD = /[A-Za-z0-9_-]/;

/** Reads a quoted key starting at `text[i]` (a quote); returns the key and the index after the closing quote. */
function readQuoted(text: string, i: number): { key: string; end: number } | undefined {
  const quote = text[i]!;
  let j = i + 1;
  let raw = '';
  while (j < text.length && text[j] !== quote) {
    if (text[j] === '\\') {
      if (j + 1 >= text.length) return undefined;
      raw += text[j]! + text[j + 1]!;
      j += 2;
    } else {
      raw += text[j];
      j++;
    }
  }
  if (j >= text.length) return undefined;
  // JSON's escapes in both quotes: \' becomes ' first in a single-quoted key.
  const json = quote === "'" ? raw.replace(/\\'/g, "'").replace(/"/g, '\\"') : raw;
  try {
    return { key: JSON.parse(`"${json}"`) as string, end: j + 1 };
  } catch {
    return undefined;
  }
}

/** Reads `ws* .? path ws* }}` from `text[start]`; the path and the index after `}}`, or undefined. */
function readPlaceholder(text: string, start: number): { path: Segment[]; end: number } | undefined {
  let i = start;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  skipSpace();
  if (text[i] === '.') i++;
  const path: Segment[] = [];
  const word = (): boolean => {
    const from = i;
    while (i < text.length && WORD.test(text[i]!)) i++;
    if (i === from) return false;
    path.push(text.slice(from, i));
    return true;
  };
  const bracket = (): boolean => {
    i++; // [
    if (text[i] === '"' || text[i] === "'") {
      const quoted = readQuoted(text, i);
      if (!quoted) return false;
      path.push(quoted.key);
      i = quoted.end;
    } else {
      const digits = /^[0-9]+/.exec(text.slice(i))?.[0];
      if (!digits) return false;
      path.push(Number(digits));
      i += digits.length;
    }
    if (text[i] !== ']') return false;
    i++;
    return true;
  };
  if (text[i] === '[') {
    if (!bracket()) return undefined;
  } else if (!word()) {
    return undefined;
  }
  for (;;) {
    if (text[i] === '.') {
      i++;
      if (!word()) return undefined;
    } else if (text[i] === '[') {
      if (!bracket()) return undefined;
    } else {
      break;
    }
  }
  skipSpace();
  if (!text.startsWith('}}', i)) return undefined;
  return { path, end: i + 2 };
}

/** Splits a template into literal text, placeholders, and placeholders whose syntax cannot be read. */
function tokenize(template: string): Token[] {
  const out: Token[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{{', i);
    if (open < 0) break;
    literal += template.slice(i, open);
    const read = readPlaceholder(template, open + 2);
    if (read) {
      if (literal) out.push({ literal });
      literal = '';
      out.push({ path: read.path, raw: template.slice(open, read.end) });
      i = read.end;
    } else {
      const close = template.indexOf('}}', open + 2);
      const end = close < 0 ? template.length : close + 2;
      if (literal) out.push({ literal });
      literal = '';
      out.push({ bad: template.slice(open, end) });
      i = end;
    }
  }
  literal += template.slice(i);
  if (literal) out.push({ literal });
  return out;
}

/**
 * Why a template cannot be saved (its first placeholder whose syntax cannot
 * be read, named), or undefined when every placeholder reads.
 */
export function templateProblem(template: string): string | undefined {
  const bad = tokenize(template).find((t): t is { bad: string } => 'bad' in t);
  if (!bad) return undefined;
  const shown = bad.bad.length > 120 ? `${bad.bad.slice(0, 120)}…` : bad.bad;
  const hint = /\}\}$/.test(bad.bad)
    ? 'a path is words joined by "." ({{event.payload.counts.person}}); write a key with a space or other characters in brackets and quotes: {{event.payload.counts["traffic cone"]}}'
    : 'it has no closing }}';
  return `the template ${JSON.stringify(shown)} cannot be read: ${hint}`;
}

/** The context's value at `path`; undefined when it has none. */
function lookup(context: Record<string, unknown>, path: readonly Segment[]): unknown {
  let value: unknown = context;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    const object = value as Record<string, unknown>;
    const part = String(segment);
    const key = Object.hasOwn(object, part)
      ? part
      : Object.keys(object).find(
          (k) => k.toLowerCase() === part.toLowerCase() || (part.toLowerCase() === 'landmark' && k === 'landmarks'),
        );
    value = key === undefined ? undefined : object[key];
  }
  return value;
}

const asText = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/**
 * Renders a template as text: values as text (objects as their JSON),
 * missing values as nothing; a placeholder that cannot be read stays as written.
 */
export function renderTemplate(template: string, context: Record<string, unknown>): string {
  if (!template.includes('{{')) return template;
  return tokenize(template)
    .map((t) => ('literal' in t ? t.literal : 'bad' in t ? t.bad : asText(lookup(context, t.path))))
    .join('');
}

/** A body that cannot be rendered as JSON: the delivery fails, and nothing is sent. */
export class TemplateRenderError extends CodedError {
  readonly code = 'TEMPLATE_RENDER_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'TemplateRenderError';
  }
  static {
    revivable('TEMPLATE_RENDER_FAILED', ({ message }) => new TemplateRenderError(message));
  }
}

/** The template's pieces, each placeholder told whether it lies inside a JSON string. */
function jsonPieces(
  template: string,
): ({ literal: string } | { path: Segment[]; inString: boolean } | { bad: string })[] {
  let inString = false;
  let escaped = false;
  return tokenize(template).map((t) => {
    if (!('literal' in t)) return 'path' in t ? { path: t.path, inString } : t;
    for (const c of t.literal) {
      if (escaped) escaped = false;
      else if (inString && c === '\\') escaped = true;
      else if (c === '"') inString = !inString;
    }
    return t;
  });
}

function renderJsonPieces(pieces: ReturnType<typeof jsonPieces>, value: (path: Segment[]) => unknown): string {
  return pieces
    .map((p) => {
      if ('literal' in p) return p.literal;
      if ('bad' in p) return p.bad;
      const v = value(p.path);
      if (p.inString) return JSON.stringify(asText(v)).slice(1, -1);
      return v === undefined ? 'null' : (JSON.stringify(v) ?? 'null');
    })
    .join('');
}

/**
 * Why a template is no JSON body (undefined when it is): it must be JSON once
 * each placeholder is a value, as renderJsonBody fills it.
 */
export function jsonTemplateProblem(template: string): string | undefined {
  const problem = templateProblem(template);
  if (problem) return problem;
  try {
    JSON.parse(renderJsonPieces(jsonPieces(template), () => undefined));
    return undefined;
  } catch (error) {
    return `is not JSON once its placeholders are values (${(error as Error).message}); a body of another kind needs a Content-Type header that says so`;
  }
}

/**
 * Renders a JSON body: each placeholder inside a string as escaped text,
 * elsewhere as a JSON value (missing: null). Throws TemplateRenderError when
 * the result is not JSON (a template saved before templates were checked).
 */
export function renderJsonBody(template: string, context: Record<string, unknown>): string {
  const pieces = jsonPieces(template);
  const bad = pieces.find((p): p is { bad: string } => 'bad' in p);
  if (bad) throw new TemplateRenderError(`the body could not be rendered: ${templateProblem(template)}`);
  const body = renderJsonPieces(pieces, (path) => lookup(context, path));
  try {
    JSON.parse(body);
  } catch (error) {
    throw new TemplateRenderError(`the body could not be rendered as JSON: ${(error as Error).message}`);
  }
  return body;
}

/** Whether a Content-Type (a webhook's header, application/json when it sets none) says JSON. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type === 'text/json' || type.endsWith('+json');
}
