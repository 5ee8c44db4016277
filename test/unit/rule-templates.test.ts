// Action templates (src/platform/rules/templates.ts): the quoting form for
// keys that are no bare word, the refusal at save of a placeholder that
// cannot be read, and webhook bodies that are always JSON.
import { describe, expect, it } from 'vitest';
import { actionsSchema } from '../../src/platform/rules/actions.js';
import {
  jsonTemplateProblem,
  renderJsonBody,
  renderTemplate,
  templateProblem,
  TemplateRenderError,
} from '../../src/platform/rules/templates.js';

const context = {
  device: { id: 'D1', name: 'gate "north"\ncam' },
  rule: { name: 'cones' },
  event: {
    payload: {
      counts: { 'traffic cone': 3, person: 1 },
      zoneCounts: { left_half: { 'traffic cone': 2 }, 'loading bay': { person: 4 } },
      attributes: { plan: 'gold', 'it\'s "quoted"': 'yes' },
      list: [{ a: 1 }],
    },
  },
  landmarks: { entered: ['L1'], exited: [], inside: [] },
};

describe('template paths', () => {
  it('reads bare words, indices and quoted keys', () => {
    expect(renderTemplate('{{event.payload.counts["traffic cone"]}}', context)).toBe('3');
    expect(renderTemplate(`{{event.payload.zoneCounts.left_half['traffic cone']}}`, context)).toBe('2');
    expect(renderTemplate('{{event.payload.zoneCounts["loading bay"].person}}', context)).toBe('4');
    expect(
      renderTemplate('{{ event.payload.list[0].a }} {{landmarks.entered.0}} {{landmarks.entered[0]}}', context),
    ).toBe('1 L1 L1');
    expect(renderTemplate('{{event.payload.attributes["it\'s \\"quoted\\""]}}', context)).toBe('yes');
    expect(renderTemplate(`{{event.payload.attributes['it\\'s "quoted"']}}`, context)).toBe('yes');
    // the platform's Go spelling, case-insensitive
    expect(renderTemplate('{{.Device.ID}} {{.Landmark.Entered.0}}', context)).toBe('D1 L1');
    // text: objects as JSON, missing values as nothing
    expect(renderTemplate('[{{event.payload.counts}}] [{{event.payload.nothing.here}}]', context)).toBe(
      '[{"traffic cone":3,"person":1}] []',
    );
  });

  it('refuses at save a placeholder whose syntax cannot be read, naming it', () => {
    expect(templateProblem('{{event.payload.counts["traffic cone"]}} and {{device.id}}')).toBeUndefined();
    expect(templateProblem('no placeholder at all, {single} braces')).toBeUndefined();
    expect(templateProblem('{{event.payload.zoneCounts.left_half.traffic cone}}')).toBe(
      'the template "{{event.payload.zoneCounts.left_half.traffic cone}}" cannot be read: a path is words joined by "." ({{event.payload.counts.person}}); write a key with a space or other characters in brackets and quotes: {{event.payload.counts["traffic cone"]}}',
    );
    expect(templateProblem('{{counts["traffic cone}}')).toMatch(
      /^the template "\{\{counts\[\\"traffic cone\}\}" cannot be read/,
    );
    expect(templateProblem('count {{device.id')).toBe(
      'the template "{{device.id" cannot be read: it has no closing }}',
    );
    // a placeholder that cannot be read stays as written in text
    expect(renderTemplate('{{a b}} {{device.id}}', context)).toBe('{{a b}} D1');
  });
});

describe('JSON bodies', () => {
  it('fills numbers as JSON values and strings escaped, and is JSON whatever the values', () => {
    const body = renderJsonBody(
      '{"cones": {{event.payload.zoneCounts.left_half["traffic cone"]}}, "device": "{{device.name}}", "all": {{event.payload.counts}}, "plan": {{event.payload.attributes.plan}}}',
      context,
    );
    expect(JSON.parse(body)).toEqual({
      cones: 2,
      device: 'gate "north"\ncam',
      all: { 'traffic cone': 3, person: 1 },
      plan: 'gold',
    });
    // an object placed inside a string is its JSON text, escaped
    expect(JSON.parse(renderJsonBody('{"s": "counts: {{event.payload.counts}}"}', context))).toEqual({
      s: 'counts: {"traffic cone":3,"person":1}',
    });
  });

  it('renders a missing value as null outside strings and as nothing inside them', () => {
    const body = renderJsonBody(
      '{"n": {{event.payload.missing}}, "s": "x{{event.payload.missing}}y", "a": [{{device.nothing}}]}',
      context,
    );
    expect(JSON.parse(body)).toEqual({ n: null, s: 'xy', a: [null] });
  });

  it('refuses a JSON body that is no JSON once its placeholders are values, and one that cannot be read', () => {
    expect(jsonTemplateProblem('{"n": {{device.id}}}')).toBeUndefined();
    expect(jsonTemplateProblem('{"n": {{device.id}} {{rule.name}}}')).toMatch(
      /^is not JSON once its placeholders are values \(.+\); a body of another kind needs a Content-Type header that says so$/,
    );
    expect(jsonTemplateProblem('hello {{device.id}}')).toMatch(/^is not JSON/);
    // a body stored before the check: nothing is sent
    expect(() => renderJsonBody('{"n": {{event.payload.counts.traffic cone}}}', context)).toThrow(TemplateRenderError);
    expect(() => renderJsonBody('{"n": {{event.payload.counts.traffic cone}}}', context)).toThrow(
      /^the body could not be rendered: the template .* cannot be read/,
    );
  });
});

describe('actions at save', () => {
  const issues = (actions: unknown) =>
    actionsSchema.safeParse(actions).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
  const hook = (fields: Record<string, unknown>) => [
    { type: 'webhook', method: 'POST', url: 'https://hooks.example.com/in', ...fields },
  ];

  it('refuses a template that cannot be read in any templated field, with a 400 naming it', () => {
    expect(issues(hook({ body: '{"n": {{event.payload.zoneCounts.left_half.traffic cone}}}' }))).toEqual([
      expect.stringMatching(
        /^0\.body: the template "\{\{event\.payload\.zoneCounts\.left_half\.traffic cone\}\}" cannot be read/,
      ),
    ]);
    expect(issues(hook({ url: 'https://hooks.example.com/in/{{device id}}' }))[0]).toMatch(
      /^0\.url: the template "\{\{device id\}\}" cannot be read/,
    );
    expect(issues(hook({ headers: { 'X-Count': '{{a b}}' } }))[0]).toMatch(
      /^0\.headers\.X-Count: the template "\{\{a b\}\}" cannot be read/,
    );
    expect(issues([{ type: 'push', subject: '{{x y}}', message: 'm' }])[0]).toMatch(/^0\.subject: the template/);
    expect(issues([{ type: 'sms', message: 'n {{a b}}', recipients: { reflect: true } }])[0]).toMatch(
      /^0\.message: the template/,
    );
    expect(
      issues([{ type: 'email', subject: 's', body: '{{a b}}', recipients: { emails: ['a@example.com'] } }])[0],
    ).toMatch(/^0\.body: the template/);
  });

  it('holds a JSON body to JSON, and lets a body of another Content-Type be text', () => {
    expect(issues(hook({ body: '{"n": {{event.payload.counts["traffic cone"]}}, "d": "{{device.id}}"}' }))).toEqual([]);
    expect(issues(hook({ body: { d: '{{device.id}}' } }))).toEqual([]);
    expect(issues(hook({ body: 'count={{device.id}}' }))[0]).toMatch(
      /^0\.body: is not JSON once its placeholders are values/,
    );
    expect(issues(hook({ body: 'count={{device.id}}', headers: { 'Content-Type': 'text/plain' } }))).toEqual([]);
    expect(
      issues(hook({ body: 'count={{device.id}}', headers: { 'content-type': 'application/vnd.x+json' } }))[0],
    ).toMatch(/^0\.body: is not JSON/);
  });
});
