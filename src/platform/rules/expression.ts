// The `conditions` expression string: generated from the condition tree, in
// the style of the platform's API (docs/CONTRACT.md#v2-rules), and parsed back by a small
// recursive-descent parser of exactly that grammar ("advanced" rules send
// only the string):
//
//   expr       := and ('||' and)*
//   and        := unary ('&&' unary)*
//   unary      := '!' unary | primary
//   primary    := '(' expr ')' | 'true' | 'false' | call | PATH CMP literal
//   call       := LANDMARK_FN '(' '(' STRING (',' STRING)* ')' ',' PATH ')'
//               | 'contains' '(' PATH ',' literal ')'
//               | 'date' '(' ('>=' | '<=') ',' ISO_STRING ')'
//               | 'timeOfDay' '(' ('>=' | '<=') ',' SECONDS ')' | 'timeOfDay' '(' 'between' ',' SECONDS ',' SECONDS ')'
//               | 'weekDay' '(' '(' DAY (',' DAY)* ')' ')'
//               | 'detections' '(' STRING (',' STRING (',' NUMBER (',' STRING)?)?)? ')' CMP NUMBER
//                   (label, zone: '' for the whole image, minimum score: 0 for any,
//                   child label: only detections with a child detection of it)
//               | 'entered' '(' STRING (',' STRING)? ')'          (zone, label: '' or none for any)
//               | 'crossed' '(' STRING (',' STRING (',' STRING)?)? ')'  (line, 'in' | 'out' | '' for either, label)
//               | 'dwell' '(' STRING (',' STRING)? ')' '>=' NUMBER  (zone, label; seconds)
//               | 'inZone' '(' STRING (',' STRING)? ')' CMP NUMBER  (zone, label; objects inside)
//               | 'heldFor' '(' NUMBER ',' NUMBER ',' expr ')'
//                   (seconds, events in a row: 0 when not asked; see ForCondition)
//               | ('becomesTrue' | 'becomesFalse') '(' expr ')'
//   literal    := STRING | NUMBER | 'true' | 'false'
//   CMP        := '==' | '!=' | '<' | '<=' | '>' | '>='
//   PATH       := 'event' ('.' (IDENTIFIER | DIGITS))+
//   STRING     := single-quoted, with \' and \\ as the only escapes
//   LANDMARK_FN:= 'enterLandmark' | 'exitLandmark' | 'insideLandmark' | 'outsideLandmark'
//
// Within one &&-chain, the date/timeOfDay/weekDay calls make one schedule leaf
// (placed where the first of them is); `event.channelId == 'c' && <leaf>`
// is a leaf scoped to channel c (see normalise). Everything else is refused
// with the character offset where parsing failed.
import { ExpressionSyntaxError } from './errors.js';
import {
  ATTRIBUTE_PATH,
  COMPARISON_OPERATORS,
  IDENTIFIER,
  LIMITS,
  MAX_HELD_EVENTS,
  MAX_HELD_SECONDS,
  SECONDS_PER_DAY,
  measure,
  normalise,
  type AttributeOperator,
  type ComparisonOperator,
  type Condition,
  type DetectionsCondition,
  type LandmarkConditionType,
  type Literal,
  type ObjectCondition,
  type ScheduleCondition,
} from './model.js';

// ---------------------------------------------------------------- generator

const LANDMARK_FUNCTIONS: readonly LandmarkConditionType[] = [
  'enterLandmark',
  'exitLandmark',
  'insideLandmark',
  'outsideLandmark',
];

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function literal(value: Literal): string {
  return typeof value === 'string' ? quote(value) : String(value);
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString();
}

function scheduleCalls(c: ScheduleCondition): string[] {
  const calls: string[] = [];
  if (c.date?.from !== undefined) calls.push(`date('>=', ${quote(isoDate(c.date.from))})`);
  if (c.date?.to !== undefined) calls.push(`date('<=', ${quote(isoDate(c.date.to))})`);
  if (c.weekDays) calls.push(`weekDay((${c.weekDays.join(', ')}))`);
  const t = c.timeOfDay;
  if (t?.from !== undefined && t.to !== undefined) calls.push(`timeOfDay('between', ${t.from}, ${t.to})`);
  else if (t?.from !== undefined) calls.push(`timeOfDay('>=', ${t.from})`);
  else if (t?.to !== undefined) calls.push(`timeOfDay('<=', ${t.to})`);
  return calls;
}

/** The expression of a tree; '' for no conditions. Nested compound parts are parenthesised. */
export function generateExpression(c: Condition | null): string {
  return c ? gen(c, false) : '';
}

function gen(c: Condition, nested: boolean): string {
  const wrap = (s: string) => (nested ? `(${s})` : s);
  switch (c.type) {
    case 'and':
      return c.items.length === 0 ? 'true' : wrap(c.items.map((i) => gen(i, true)).join(' && '));
    case 'or':
      return c.items.length === 0 ? 'false' : wrap(c.items.map((i) => gen(i, true)).join(' || '));
    case 'not':
      return `!(${gen(c.item, false)})`;
    case 'for':
      return `heldFor(${c.seconds ?? 0}, ${c.events ?? 0}, ${gen(c.item, false)})`;
    case 'becomes':
      return `${c.to ? 'becomesTrue' : 'becomesFalse'}(${gen(c.item, false)})`;
    case 'schedule': {
      const calls = scheduleCalls(c);
      return calls.length === 0 ? 'true' : wrap(calls.join(' && '));
    }
    case 'detections': {
      // Positional: an argument before a given one is written as "any" ('' for the zone, 0 for the score).
      const args = [quote(c.label)];
      if (c.zone !== undefined || c.minScore !== undefined || c.child !== undefined) args.push(quote(c.zone ?? ''));
      if (c.minScore !== undefined || c.child !== undefined) args.push(String(c.minScore ?? 0));
      if (c.child !== undefined) args.push(quote(c.child));
      return `detections(${args.join(', ')}) ${c.operator} ${c.value}`;
    }
    case 'entered':
      return `entered(${[c.zone, ...(c.label === undefined ? [] : [c.label])].map(quote).join(', ')})`;
    case 'crossed': {
      const args = [c.line];
      if (c.direction !== undefined || c.label !== undefined) args.push(c.direction ?? '');
      if (c.label !== undefined) args.push(c.label);
      return `crossed(${args.map(quote).join(', ')})`;
    }
    case 'dwell':
    case 'inZone': {
      const args = [c.zone, ...(c.label === undefined ? [] : [c.label])].map(quote).join(', ');
      return c.type === 'dwell' ? `dwell(${args}) >= ${c.seconds}` : `inZone(${args}) ${c.operator} ${c.value}`;
    }
    case 'matchAttribute': {
      const core =
        c.operator === 'contains'
          ? `contains(${c.attribute}, ${literal(c.value)})`
          : `${c.attribute} ${c.operator} ${literal(c.value)}`;
      return c.channelId === undefined ? core : wrap(`event.channelId == ${quote(c.channelId)} && ${core}`);
    }
    default: {
      const core = `${c.type}((${c.ids.map(quote).join(', ')}), ${c.attribute})`;
      return c.channelId === undefined ? core : wrap(`event.channelId == ${quote(c.channelId)} && ${core}`);
    }
  }
}

// ---------------------------------------------------------------- lexer

type Punct = '(' | ')' | ',' | '&&' | '||' | '!';
type Token =
  | { kind: 'punct'; value: Punct; pos: number }
  | { kind: 'op'; value: ComparisonOperator; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'number'; value: number; pos: number }
  | { kind: 'name'; value: string; pos: number }
  | { kind: 'end'; pos: number };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NAME = /[A-Za-z_$][A-Za-z0-9_$]*(?:\.(?:[A-Za-z_$][A-Za-z0-9_$]*|\d+))*/y;

interface LexOptions {
  where: string;
  /** Gen A free-form predicates: "double-quoted" strings too */
  doubleQuotes?: boolean;
}

function lex(source: string, options: LexOptions): Token[] {
  const tokens: Token[] = [];
  const fail = (pos: number, reason: string): never => {
    throw new ExpressionSyntaxError(options.where, pos, reason);
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i++;
      continue;
    }
    const two = source.slice(i, i + 2);
    if (two === '&&' || two === '||') {
      tokens.push({ kind: 'punct', value: two, pos: i });
      i += 2;
    } else if (two === '==' || two === '!=' || two === '<=' || two === '>=') {
      tokens.push({ kind: 'op', value: two, pos: i });
      i += 2;
    } else if (ch === '<' || ch === '>') {
      tokens.push({ kind: 'op', value: ch, pos: i });
      i++;
    } else if (ch === '(' || ch === ')' || ch === ',' || ch === '!') {
      tokens.push({ kind: 'punct', value: ch, pos: i });
      i++;
    } else if (ch === "'" || (ch === '"' && options.doubleQuotes)) {
      const start = i;
      let value = '';
      i++;
      for (;;) {
        if (i >= source.length) fail(start, 'unterminated string');
        const c = source[i]!;
        if (c === ch) break;
        if (c === '\\') {
          const next = source[i + 1];
          if (next !== '\\' && next !== ch) fail(i, `unknown escape \\${next ?? ''} (only \\${ch} and \\\\)`);
          value += next;
          i += 2;
        } else {
          value += c;
          i++;
        }
      }
      i++;
      if (value.length > LIMITS.stringLength) fail(start, `string longer than ${LIMITS.stringLength} characters`);
      tokens.push({ kind: 'string', value, pos: start });
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(source);
      if (!match) fail(i, `unexpected character '${ch}'`);
      const value = Number(match![0]);
      if (!Number.isFinite(value)) fail(i, 'number out of range');
      tokens.push({ kind: 'number', value, pos: i });
      i += match![0].length;
    } else if (/[A-Za-z_$]/.test(ch)) {
      NAME.lastIndex = i;
      const match = NAME.exec(source)!;
      tokens.push({ kind: 'name', value: match[0], pos: i });
      i += match[0].length;
    } else {
      fail(i, `unexpected character '${ch}'`);
    }
  }
  tokens.push({ kind: 'end', pos: source.length });
  return tokens;
}

// ---------------------------------------------------------------- parser

/** A date/timeOfDay/weekDay call: merged with the others of its &&-chain into one schedule leaf. */
interface ScheduleCall {
  type: 'call';
  pos: number;
  apply(schedule: ScheduleCondition, parts: Map<string, number>): void;
}

type Parsed = Condition | ScheduleCall;

const describe = (t: Token) =>
  t.kind === 'end' ? 'end of input' : t.kind === 'string' ? `string ${quote(t.value)}` : `'${String(t.value)}'`;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
export const MAX_DATE_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly where: string,
  ) {}

  private get token(): Token {
    return this.tokens[this.index]!;
  }

  private fail(pos: number, reason: string): never {
    throw new ExpressionSyntaxError(this.where, pos, reason);
  }

  private expected(what: string): never {
    return this.fail(this.token.pos, `expected ${what}, found ${describe(this.token)}`);
  }

  private isPunct(value: Punct): boolean {
    const t = this.token;
    return t.kind === 'punct' && t.value === value;
  }

  private punct(value: Punct): void {
    if (!this.isPunct(value)) this.expected(`'${value}'`);
    this.index++;
  }

  private string(what = 'a string'): { value: string; pos: number } {
    const t = this.token;
    if (t.kind !== 'string') return this.expected(what);
    this.index++;
    return t;
  }

  private number(what = 'a number'): { value: number; pos: number } {
    const t = this.token;
    if (t.kind !== 'number') return this.expected(what);
    this.index++;
    return t;
  }

  private integer(min: number, max: number, what: string): number {
    const t = this.number(what);
    if (!Number.isInteger(t.value) || t.value < min || t.value > max)
      this.fail(t.pos, `${what} must be an integer from ${min} to ${max}`);
    return t.value;
  }

  private path(): string {
    const t = this.token;
    if (t.kind !== 'name') return this.expected('an attribute path (event.…)');
    if (!ATTRIBUTE_PATH.test(t.value))
      this.fail(t.pos, `'${t.value}' is not an attribute path: paths start with 'event.'`);
    this.index++;
    return t.value;
  }

  private literal(): Literal {
    const t = this.token;
    if (t.kind === 'string' || t.kind === 'number') {
      this.index++;
      return t.value;
    }
    if (t.kind === 'name' && (t.value === 'true' || t.value === 'false')) {
      this.index++;
      return t.value === 'true';
    }
    return this.expected('a string, number, true or false');
  }

  parse(): Condition {
    const result = this.toCondition(this.or());
    if (this.token.kind !== 'end') this.expected('&&, || or end of input');
    return result;
  }

  private or(): Parsed {
    const items = [this.and()];
    while (this.isPunct('||')) {
      this.index++;
      items.push(this.and());
    }
    return items.length === 1 ? items[0]! : { type: 'or', items: items.map((i) => this.toCondition(i)) };
  }

  /** An &&-chain: its schedule calls merge into one schedule leaf. */
  private and(): Parsed {
    const items = [this.unary()];
    while (this.isPunct('&&')) {
      this.index++;
      items.push(this.unary());
    }
    if (items.length === 1) return items[0]!;
    const out: Condition[] = [];
    let schedule: ScheduleCondition | undefined;
    const parts = new Map<string, number>();
    for (const item of items) {
      if (item.type === 'call') {
        if (!schedule) {
          schedule = { type: 'schedule' };
          out.push(schedule);
        }
        item.apply(schedule, parts);
      } else {
        out.push(item);
      }
    }
    return { type: 'and', items: out };
  }

  private toCondition(p: Parsed): Condition {
    if (p.type !== 'call') return p;
    const schedule: ScheduleCondition = { type: 'schedule' };
    p.apply(schedule, new Map());
    return schedule;
  }

  private nest<T>(pos: number, f: () => T): T {
    if (++this.depth > LIMITS.depth) this.fail(pos, `nested deeper than ${LIMITS.depth} levels`);
    const result = f();
    this.depth--;
    return result;
  }

  private unary(): Parsed {
    const t = this.token;
    if (this.isPunct('!')) {
      this.index++;
      return this.nest(t.pos, () => ({ type: 'not', item: this.toCondition(this.unary()) }));
    }
    return this.primary();
  }

  private primary(): Parsed {
    const t = this.token;
    if (this.isPunct('(')) {
      this.index++;
      const inner = this.nest(t.pos, () => this.or());
      this.punct(')');
      return this.toCondition(inner);
    }
    if (t.kind !== 'name') return this.expected('a condition');
    if (t.value === 'true' || t.value === 'false') {
      this.index++;
      return { type: t.value === 'true' ? 'and' : 'or', items: [] };
    }
    const next = this.tokens[this.index + 1]!;
    if (next.kind === 'punct' && next.value === '(') return this.call(t.value, t.pos);
    const attribute = this.path();
    const op = this.token;
    if (op.kind !== 'op') return this.expected(`a comparison operator (${COMPARISON_OPERATORS.join(' ')})`);
    this.index++;
    return { type: 'matchAttribute', attribute, operator: op.value as AttributeOperator, value: this.literal() };
  }

  private call(name: string, pos: number): Parsed {
    this.index += 2; // name '('
    if ((LANDMARK_FUNCTIONS as readonly string[]).includes(name)) {
      this.punct('(');
      const ids = [this.string('a landmark id').value];
      while (this.isPunct(',')) {
        this.index++;
        ids.push(this.string('a landmark id').value);
      }
      if (ids.length > LIMITS.idsPerLeaf) this.fail(pos, `more than ${LIMITS.idsPerLeaf} landmark ids`);
      this.punct(')');
      this.punct(',');
      const attribute = this.path();
      this.punct(')');
      return { type: name as LandmarkConditionType, ids, attribute };
    }
    switch (name) {
      case 'contains': {
        const attribute = this.path();
        this.punct(',');
        const value = this.literal();
        this.punct(')');
        return { type: 'matchAttribute', attribute, operator: 'contains', value };
      }
      case 'date':
        return this.dateCall(pos);
      case 'timeOfDay':
        return this.timeOfDayCall(pos);
      case 'weekDay':
        return this.weekDayCall(pos);
      case 'detections':
        return this.detectionsCall();
      case 'entered':
      case 'crossed':
      case 'dwell':
      case 'inZone':
        return this.objectCall(name);
      case 'heldFor': {
        const seconds = this.number('a number of seconds (0: not asked)');
        this.punct(',');
        const events = this.number('a number of events in a row (0: not asked)');
        if (!(seconds.value >= 0 && seconds.value <= MAX_HELD_SECONDS))
          this.fail(seconds.pos, `seconds must be from 0 to ${MAX_HELD_SECONDS}`);
        if (!Number.isInteger(events.value) || events.value < 0 || events.value > MAX_HELD_EVENTS)
          this.fail(events.pos, `events must be an integer from 0 to ${MAX_HELD_EVENTS}`);
        if (seconds.value === 0 && events.value === 0)
          this.fail(seconds.pos, 'heldFor needs seconds or events (or both) above 0');
        this.punct(',');
        const item = this.toCondition(this.nest(pos, () => this.or()));
        this.punct(')');
        return { type: 'for', seconds: seconds.value, events: events.value, item };
      }
      case 'becomesTrue':
      case 'becomesFalse': {
        const item = this.toCondition(this.nest(pos, () => this.or()));
        this.punct(')');
        return { type: 'becomes', to: name === 'becomesTrue', item };
      }
      default:
        return this.fail(pos, `unknown function '${name}'`);
    }
  }

  private claim(parts: Map<string, number>, part: string, pos: number): void {
    if (parts.has(part)) this.fail(pos, `${part} given twice in one && chain`);
    parts.set(part, pos);
  }

  private dateCall(pos: number): ScheduleCall {
    const op = this.string("'>=' or '<='");
    if (op.value !== '>=' && op.value !== '<=') this.fail(op.pos, `date takes '>=' or '<=', not ${quote(op.value)}`);
    this.punct(',');
    const date = this.string('an ISO 8601 date');
    const ms = ISO_DATE.test(date.value) ? Date.parse(date.value) : NaN;
    if (!Number.isFinite(ms) || ms < 0 || ms > MAX_DATE_MS)
      this.fail(date.pos, `${quote(date.value)} is not an ISO 8601 date with a time zone (1970–9999)`);
    this.punct(')');
    const key = op.value === '>=' ? 'from' : 'to';
    return {
      type: 'call',
      pos,
      apply: (s, parts) => {
        this.claim(parts, `date('${op.value}')`, pos);
        s.date = { ...s.date, [key]: ms };
      },
    };
  }

  private timeOfDayCall(pos: number): ScheduleCall {
    const op = this.string("'>=', '<=' or 'between'");
    this.punct(',');
    const seconds = 'seconds after midnight';
    if (op.value === 'between') {
      const from = this.integer(0, SECONDS_PER_DAY, seconds);
      this.punct(',');
      const to = this.integer(0, SECONDS_PER_DAY, seconds);
      this.punct(')');
      return {
        type: 'call',
        pos,
        apply: (s, parts) => {
          this.claim(parts, "timeOfDay('>=')", pos);
          this.claim(parts, "timeOfDay('<=')", pos);
          s.timeOfDay = { from, to };
        },
      };
    }
    if (op.value !== '>=' && op.value !== '<=')
      this.fail(op.pos, `timeOfDay takes '>=', '<=' or 'between', not ${quote(op.value)}`);
    const value = this.integer(0, SECONDS_PER_DAY, seconds);
    this.punct(')');
    return {
      type: 'call',
      pos,
      apply: (s, parts) => {
        this.claim(parts, `timeOfDay('${op.value}')`, pos);
        const t = { ...s.timeOfDay, [op.value === '>=' ? 'from' : 'to']: value };
        if (t.from !== undefined && t.to !== undefined && t.from > t.to) {
          this.fail(
            pos,
            `timeOfDay('>=', ${t.from}) && timeOfDay('<=', ${t.to}) never holds; write timeOfDay('between', ${t.from}, ${t.to}) for a window across midnight`,
          );
        }
        s.timeOfDay = t;
      },
    };
  }

  /** detections('label'[, 'zone'[, minScore[, 'child']]]) CMP count, after `detections(` */
  private detectionsCall(): DetectionsCondition {
    const label = this.string('a label').value;
    let zone: string | undefined;
    let minScore: number | undefined;
    let child: string | undefined;
    if (this.isPunct(',')) {
      this.index++;
      zone = this.string("a zone name ('' for the whole image)").value;
      if (this.isPunct(',')) {
        this.index++;
        const score = this.number('a minimum score (0 for any)');
        if (score.value < 0 || score.value > 1) this.fail(score.pos, 'the minimum score must be from 0 to 1');
        minScore = score.value;
        if (this.isPunct(',')) {
          this.index++;
          child = this.string("a child label (a label of the version's child stages)").value;
        }
      }
    }
    this.punct(')');
    const op = this.token;
    if (op.kind !== 'op')
      return this.expected(`a comparison operator (${COMPARISON_OPERATORS.join(' ')}) after detections(…)`);
    this.index++;
    const count = this.number('a number of detections');
    const out: DetectionsCondition = { type: 'detections', label, operator: op.value, value: count.value };
    if (zone !== undefined) out.zone = zone;
    if (minScore !== undefined) out.minScore = minScore;
    if (child !== undefined) out.child = child;
    return out;
  }

  /** entered / crossed / dwell / inZone, after their `(` */
  private objectCall(name: ObjectCondition['type']): ObjectCondition {
    const place = this.string(name === 'crossed' ? 'a line name' : 'a zone name').value;
    const optionalString = (what: string): string | undefined => {
      if (!this.isPunct(',')) return undefined;
      this.index++;
      return this.string(what).value;
    };
    if (name === 'crossed') {
      const direction = optionalString("a direction ('in', 'out', or '' for either)");
      if (direction !== undefined && direction !== '' && direction !== 'in' && direction !== 'out')
        this.fail(
          this.tokens[this.index - 1]!.pos,
          `a crossing's direction is 'in', 'out' or '', not ${quote(direction)}`,
        );
      const label = optionalString("a label ('' for any)");
      this.punct(')');
      return {
        type: 'crossed',
        line: place,
        ...(direction && { direction: direction as 'in' | 'out' }),
        ...(label !== undefined && { label }),
      };
    }
    const label = optionalString("a label ('' for any)");
    this.punct(')');
    if (name === 'entered') return { type: 'entered', zone: place, ...(label !== undefined && { label }) };
    const op = this.token;
    if (op.kind !== 'op') return this.expected(`a comparison operator after ${name}(…)`);
    this.index++;
    if (name === 'dwell') {
      if (op.value !== '>=') this.fail(op.pos, "dwell(…) takes '>=' only: the moment an object has stayed that long");
      const seconds = this.number('a number of seconds');
      if (!(seconds.value > 0 && seconds.value <= MAX_HELD_SECONDS))
        this.fail(seconds.pos, `seconds must be above 0 and at most ${MAX_HELD_SECONDS}`);
      return { type: 'dwell', zone: place, ...(label !== undefined && { label }), seconds: seconds.value };
    }
    const count = this.number('a number of objects');
    return {
      type: 'inZone',
      zone: place,
      ...(label !== undefined && { label }),
      operator: op.value,
      value: count.value,
    };
  }

  private weekDayCall(pos: number): ScheduleCall {
    this.punct('(');
    const days = [this.integer(0, 6, 'a week day (0 = Sunday)')];
    while (this.isPunct(',')) {
      this.index++;
      days.push(this.integer(0, 6, 'a week day (0 = Sunday)'));
    }
    this.punct(')');
    this.punct(')');
    return {
      type: 'call',
      pos,
      apply: (s, parts) => {
        this.claim(parts, 'weekDay', pos);
        s.weekDays = days;
      },
    };
  }
}

/** Parses a `conditions` string into a normalised tree; null for an empty string. */
export function parseExpression(source: string, where = 'conditions'): Condition | null {
  if (source.length > LIMITS.expressionLength)
    throw new ExpressionSyntaxError(
      where,
      LIMITS.expressionLength,
      `longer than ${LIMITS.expressionLength} characters`,
    );
  if (source.trim() === '') return null;
  const tree = normalise(new Parser(lex(source, { where }), where).parse());
  if (measure(tree).nodes > LIMITS.nodes)
    throw new ExpressionSyntaxError(where, 0, `more than ${LIMITS.nodes} conditions`);
  return tree;
}

/**
 * A Gen A "event free form" predicate: only `path op literal` (`data.tempF == 67`,
 * `deviceId == '…'`, `event.name != "x"`). A path without `event.` is a path
 * into the event (`data.tempF` is `event.data.tempF`).
 */
export function parseFreeForm(source: string, where: string): Condition {
  const hint = 'only "path operator literal" predicates are supported (e.g. data.tempF >= 67)';
  let tokens: Token[];
  try {
    tokens = lex(source, { where, doubleQuotes: true });
  } catch (error) {
    if (error instanceof ExpressionSyntaxError)
      throw new ExpressionSyntaxError(where, error.position, `${error.syntax}; ${hint}`);
    throw error;
  }
  const fail = (t: Token, reason: string): never => {
    throw new ExpressionSyntaxError(where, t.pos, `${reason}; ${hint}`);
  };
  const [name, op, value, end] = tokens as [Token, Token?, Token?, Token?];
  if (name.kind !== 'name') return fail(name, `expected an attribute path, found ${describe(name)}`);
  const segments = name.value.split('.');
  if (!segments.every((s) => IDENTIFIER.test(s) || /^\d+$/.test(s)) || !IDENTIFIER.test(segments[0]!))
    return fail(name, `'${name.value}' is not an attribute path`);
  const attribute = segments[0] === 'event' && segments.length > 1 ? name.value : `event.${name.value}`;
  if (!op || op.kind !== 'op')
    return fail(op ?? name, `expected a comparison operator (${COMPARISON_OPERATORS.join(' ')})`);
  let literalValue: Literal;
  if (value?.kind === 'string' || value?.kind === 'number') literalValue = value.value;
  else if (value?.kind === 'name' && (value.value === 'true' || value.value === 'false'))
    literalValue = value.value === 'true';
  else return fail(value ?? op, 'expected a string, number, true or false');
  if (end?.kind !== 'end') return fail(end ?? value, 'expected end of predicate');
  return normalise({ type: 'matchAttribute', attribute, operator: op.value, value: literalValue });
}
