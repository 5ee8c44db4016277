// What a tenant reads names no file of the server (src/lib/server-paths.ts).
import { describe, expect, it } from 'vitest';
import { withoutServerPaths } from '../../src/lib/server-paths.js';

describe('withoutServerPaths', () => {
  it('keeps only the last part of absolute paths, and the rest of the text', () => {
    expect(
      withoutServerPaths('Load model from /srv/sense/data/models/01JABC/model.onnx failed: Protobuf parsing failed.'),
    ).toBe('Load model from model.onnx failed: Protobuf parsing failed.');
    expect(withoutServerPaths("ENOENT: no such file or directory, open '/work/main/data/jwt-secret'")).toBe(
      "ENOENT: no such file or directory, open 'jwt-secret'",
    );
    expect(
      withoutServerPaths(
        '[ONNXRuntimeError] /onnxruntime_src/onnxruntime/core/session/inference_session.cc:1234 failed',
      ),
    ).toBe('[ONNXRuntimeError] inference_session.cc:1234 failed');
    // URLs, ratios, dates and relative names are not paths of the server
    for (const text of [
      'see https://example.com/a/b/c',
      'a 1/2 share',
      '2026/11/26',
      'models/demo/model.json',
      'input "images" is not a tensor',
    ]) {
      expect(withoutServerPaths(text)).toBe(text);
    }
  });
});
