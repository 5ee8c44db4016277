// Errors keep their identity across the worker-thread and child-process hops:
// every coded class goes into one envelope (serializeError) and comes out of
// it (deserializeError) as the same class with the same code, message and
// fields, whether the hop clones it (postMessage, advanced IPC) or writes it
// as JSON (the validation process's report line). The codes are a fixed,
// documented list (docs/ERROR-CODES.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CodedError,
  DomainError,
  deserializeError,
  ERROR_CODES,
  errorCode,
  OutOfOrganizationError,
  RemoteError,
  serializeError,
  type ErrorEnvelope,
  type ErrorKind,
} from '../../src/errors.js';
import { MalformedWire } from '../../src/ingest/item-limits.js';
import { NoInstanceError } from '../../src/inference/scheduling/batcher.js';
import { JpegDecoderError } from '../../src/inference/pipeline/decode-image.js';
import { ExternalDataError } from '../../src/inference/graph/external-data.js';
import { Float16Error } from '../../src/inference/graph/float16.js';
import { NotOnnxError } from '../../src/inference/graph/onnx-file.js';
import { OnnxModelError } from '../../src/inference/graph/onnx-model.js';
import { WireFormatError } from '../../src/inference/graph/wire.js';
import { InstanceLoadError, InstanceRestartingError } from '../../src/inference/instances/instance.js';
import { OutOfMemoryError, outOfMemory } from '../../src/inference/instances/limited-process.js';
import { ModelConfigError } from '../../src/inference/versions/model-config.js';
import { OutputShapeError } from '../../src/inference/outputs/types.js';
import { ModelLoadError } from '../../src/inference/instances/session.js';
import { ModelValidationError, ValidationAbortedError } from '../../src/inference/versions/model-validation.js';
import { MultipartError } from '../../src/lib/multipart.js';
import { InvalidUtf8Error } from '../../src/lib/utf8.js';
import { EvaluationOverrun } from '../../src/platform/rules/budget.js';
import { ConditionError, ExpressionSyntaxError } from '../../src/platform/rules/errors.js';
import { ActionFailedError, RetryableError, WebhookTimeoutError } from '../../src/platform/rules/action-runner.js';
import { BlockedDestinationError } from '../../src/platform/rules/ssrf-guard.js';
import { TemplateRenderError } from '../../src/platform/rules/templates.js';
import { UnopenableSecretError } from '../../src/platform/secrets.js';

const KINDS: ErrorKind[] = [
  'invalid',
  'unauthenticated',
  'forbidden',
  'not-found',
  'conflict',
  'too-large',
  'throttled',
  'unavailable',
  'failed',
];

/** One error of each coded class (each DomainError kind), with the fields its class holds. */
const SAMPLES: CodedError[] = [
  ...KINDS.map(
    (kind, i) =>
      new DomainError(
        kind,
        `a ${kind} error`,
        i % 2 ? `its detail ${i}` : undefined,
        kind === 'throttled' || kind === 'unavailable' ? i : undefined,
      ),
  ),
  new OutOfOrganizationError('channel', 'ch-1'),
  new ModelConfigError('model.json: labels: expected an array'),
  new NotOnnxError('the file is 12 bytes (it looks like JSON: model.json?)'),
  new ExternalDataError('an initializer names data outside the model'),
  new OnnxModelError('not an ONNX model: index out of range'),
  new WireFormatError('a varint runs past the end'),
  new Float16Error('the graph has an If node'),
  new ModelLoadError('ONNX Runtime cannot load model.onnx: bad graph'),
  new OutputShapeError('output 0 has shape [1, 3]'),
  new OutOfMemoryError('Failed to allocate memory for requested buffer of size 123456'),
  new ModelValidationError('model needs more than 512 MB to load and run'),
  new ValidationAbortedError(),
  new InstanceLoadError('instance process was killed by SIGKILL while loading', { code: null, signal: 'SIGKILL' }),
  new InstanceRestartingError('was killed by SIGKILL', 3),
  new NoInstanceError('no instance is running'),
  new JpegDecoderError('libturbojpeg is not built in'),
  new MultipartError('multipart: part is not form-data'),
  new InvalidUtf8Error(),
  new UnopenableSecretError('a stored secret is damaged'),
  new ConditionError('conditions.0', 'unknown operator'),
  new ExpressionSyntaxError('conditions', 4, 'unexpected ")"'),
  new EvaluationOverrun(),
  new TemplateRenderError('the body could not be rendered as JSON: Unexpected token'),
  new BlockedDestinationError('blocked: 127.0.0.1 is a loopback address'),
  new WebhookTimeoutError('timed out after 100 ms'),
  new RetryableError('HTTP 503'),
  new ActionFailedError('HTTP 404'),
  new MalformedWire(),
];

/** The two hops: a structured clone (postMessage to and from a thread, a child's advanced IPC) and a JSON line. */
const HOPS: Record<string, (envelope: ErrorEnvelope) => ErrorEnvelope> = {
  'structured clone': (envelope) => structuredClone(envelope),
  JSON: (envelope) => JSON.parse(JSON.stringify(envelope)) as ErrorEnvelope,
};

/** What an error holds of its own: its enumerable fields (the DomainError's kind, detail…) besides its message and name. */
const fields = (error: Error) => ({ ...error, name: error.name, message: error.message });

describe('the error envelope', () => {
  for (const [hop, cross] of Object.entries(HOPS)) {
    it(`brings each coded class back as itself, with its code, message and fields (${hop})`, () => {
      for (const error of SAMPLES) {
        const back = deserializeError(cross(serializeError(error)));
        expect(back.constructor, error.code).toBe(error.constructor);
        expect(errorCode(back)).toBe(error.code);
        expect(fields(back)).toEqual(fields(error));
      }
    });
  }

  it('has a sample of every code but UNCODED, so that none goes untested', () => {
    expect(new Set(SAMPLES.map((e) => e.code))).toEqual(new Set(ERROR_CODES.filter((c) => c !== 'UNCODED')));
  });

  it('carries an error without a code as UNCODED, its name and message kept', () => {
    const error = new RangeError('Invalid array length');
    const envelope = serializeError(error);
    expect(envelope).toEqual({ code: 'UNCODED', name: 'RangeError', message: 'Invalid array length' });
    const back = deserializeError(JSON.parse(JSON.stringify(envelope)) as ErrorEnvelope);
    expect(back).toBeInstanceOf(RemoteError);
    expect([errorCode(back), back.name, back.message]).toEqual(['UNCODED', 'RangeError', 'Invalid array length']);
    expect(serializeError('a string thrown')).toEqual({ code: 'UNCODED', name: 'Error', message: 'a string thrown' });
  });

  it('tells a runtime out of memory by its code once caught, whatever the other side reads of its message', () => {
    const caught = outOfMemory(new Error('std::bad_alloc'));
    expect(caught).toBeInstanceOf(OutOfMemoryError);
    expect(deserializeError(serializeError(caught))).toBeInstanceOf(OutOfMemoryError);
    // ONNX Runtime's words quoted by an error of ours (a warm-up run's ModelLoadError)
    const quoted = outOfMemory(
      new ModelLoadError(
        'warm-up run failed: Non-zero status code returned while running Expand node. Failed to allocate memory',
      ),
    );
    expect(errorCode(quoted)).toBe('MODEL_OUT_OF_MEMORY');
    expect((quoted as Error).message).toBe(
      'warm-up run failed: Non-zero status code returned while running Expand node. Failed to allocate memory',
    );
    const other = new ModelLoadError('warm-up run failed: Non-zero status code returned while running Conv node');
    expect(outOfMemory(other)).toBe(other);
  });
});

describe('the error codes', () => {
  it('are SCREAMING_SNAKE and unique', () => {
    for (const code of ERROR_CODES) expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it('are the list docs/ERROR-CODES.md documents, in its order', () => {
    const text = readFileSync(new URL('../../docs/ERROR-CODES.md', import.meta.url), 'utf8');
    const documented = [...text.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual([...ERROR_CODES]);
  });
});
