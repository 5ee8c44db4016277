// The pure parts of child stages: which pixels a detection's crop covers
// (padding, square, clamping, minSize), a child's answer moved from a crop
// back to the whole image, and whether a version's stages make a tree the
// server can run (labels, visibility, cycles, depth counted both ways).
import { describe, expect, it } from 'vitest';
import { boxOf, cropRect, toImage } from '../../src/inference/pipeline/crops.js';
import type { Stage } from '../../src/inference/versions/model-config.js';
import { type StageNode, stagesProblem } from '../../src/inference/versions/stage-tree.js';

const settings = { padding: 0, square: false, minSize: 1 };

describe('a crop', () => {
  it("covers the box's pixels, widened to whole pixels", () => {
    expect(cropRect([0.1, 0.2, 0.35, 0.5], 100, 50, settings)).toEqual({ x: 10, y: 10, width: 25, height: 15 });
    // 10.5 → 10, 34.2 → 35
    expect(cropRect([0.105, 0.2, 0.342, 0.5], 100, 50, settings)).toEqual({ x: 10, y: 10, width: 25, height: 15 });
  });

  it('is padded by a fraction of the box on each side, and clamped to the image', () => {
    // a 20 x 10 box at (10, 10): 0.5 adds 10 px left and right, 5 px above and below
    expect(cropRect([0.1, 0.2, 0.3, 0.4], 100, 50, { ...settings, padding: 0.5 })).toEqual({
      x: 0,
      y: 5,
      width: 40,
      height: 20,
    });
    expect(cropRect([0.9, 0.8, 1, 1], 100, 50, { ...settings, padding: 1 })).toEqual({
      x: 80,
      y: 30,
      width: 20,
      height: 20,
    });
  });

  it('is squared around its centre, before clamping', () => {
    // 20 x 10 at (40, 20) → 20 x 20 centred at (50, 25)
    expect(cropRect([0.4, 0.4, 0.6, 0.6], 100, 50, { ...settings, square: true })).toEqual({
      x: 40,
      y: 15,
      width: 20,
      height: 20,
    });
  });

  it('is not cut when smaller than minSize either way, or empty', () => {
    // 4 and then 6 pixels wide in a 64 x 32 image
    expect(cropRect([0.125, 0.125, 0.1875, 0.5], 64, 32, { ...settings, minSize: 6 })).toBeUndefined();
    expect(cropRect([0.125, 0.125, 0.21875, 0.5], 64, 32, { ...settings, minSize: 6 })).toEqual({
      x: 8,
      y: 4,
      width: 6,
      height: 12,
    });
    expect(cropRect([0.5, 0.5, 0.5, 0.5], 100, 50, settings)).toBeUndefined();
  });

  it("takes a polygon's bounds, and nothing of a point or a class", () => {
    const polygon = {
      type: 'polygon' as const,
      data: {
        points: [
          [0.2, 0.1],
          [0.6, 0.3],
          [0.4, 0.7],
        ] as Array<[number, number]>,
      },
      score: 1,
      children: {},
    };
    expect(boxOf(polygon)).toEqual([0.2, 0.1, 0.6, 0.7]);
    expect(boxOf({ type: 'point', data: { point: [0.5, 0.5] }, score: 1, children: {} })).toBeUndefined();
    expect(boxOf({ type: 'class', data: {}, score: 1, children: {} })).toBeUndefined();
  });
});

describe("a child's answer on a crop", () => {
  it("is moved to the whole image's fractions, shapes and their own children alike, classes as they are", () => {
    const rect = { x: 20, y: 10, width: 40, height: 20 };
    const moved = toImage(
      {
        red: [{ type: 'class', data: {}, score: 0.9, children: {} }],
        wheel: [
          {
            type: 'rectangle',
            data: { min: [0, 0], max: [0.5, 1] },
            score: 0.8,
            children: { hub: [{ type: 'point', data: { point: [0.25, 0.5] }, score: 0.7, children: {} }] },
          },
        ],
        mask: [
          {
            type: 'polygon',
            data: {
              points: [
                [0, 0],
                [1, 0],
                [1, 1],
              ],
            },
            score: 0.6,
            children: {},
          },
        ],
      },
      rect,
      100,
      50,
    );
    expect(moved.red).toEqual([{ type: 'class', data: {}, score: 0.9, children: {} }]);
    expect(moved.wheel![0]!.data).toEqual({ min: [0.2, 0.2], max: [0.4, 0.6] });
    expect(moved.wheel![0]!.children.hub![0]!.data).toEqual({ point: [0.3, 0.4] });
    expect(moved.mask![0]!.data).toEqual({
      points: [
        [0.2, 0.2],
        [0.6, 0.2],
        [0.6, 0.6],
      ],
    });
  });
});

const stage = (modelVersionId: string, labels = ['car']): Stage => ({
  labels,
  modelVersionId,
  crop: { padding: 0, square: false, minSize: 4 },
  maxPerImage: 16,
  options: {},
});
const node = (id: string, stages: Stage[] = [], organizationId = 'org', isPublic = false): StageNode => ({
  id,
  organizationId,
  public: isPublic,
  stages,
});
const tree = (...nodes: StageNode[]) => new Map(nodes.map((n) => [n.id, n]));
const version = { id: 'detector', organizationId: 'org', labels: ['car', 'person'] };

describe("a version's stages", () => {
  it('may name its labels and versions the organization can run: its own and public ones', () => {
    const versions = tree(node('detector'), node('colour'), node('public-pose', [], 'other', true));
    expect(stagesProblem(version, [stage('colour'), stage('public-pose', ['person'])], versions)).toBeUndefined();
    expect(stagesProblem(version, [], versions)).toBeUndefined();
  });

  it('may not name a label the version does not answer', () => {
    expect(stagesProblem(version, [stage('colour', ['car', 'bike'])], tree(node('detector'), node('colour')))).toBe(
      'stages[0].labels: "bike" is not one of this version\'s labels',
    );
  });

  it("may not name another organization's private version, or none", () => {
    const versions = tree(node('detector'), node('theirs', [], 'other'));
    expect(stagesProblem(version, [stage('theirs')], versions)).toBe(
      'stages[0].modelVersionId: theirs is not a version this organization can run',
    );
    expect(stagesProblem(version, [stage('colour'), stage('gone')], tree(node('detector'), node('colour')))).toBe(
      'stages[1].modelVersionId: gone is not a version this organization can run',
    );
  });

  it('may not lead back to the version: itself, or through its children', () => {
    expect(stagesProblem(version, [stage('detector')], tree(node('detector')))).toMatch(/leads back to this version/);
    const versions = tree(node('detector'), node('a', [stage('b')]), node('b', [stage('detector')]));
    expect(stagesProblem(version, [stage('a')], versions)).toBe(
      'stages[0].modelVersionId: a leads back to this version; stages cannot form a cycle',
    );
  });

  it('nest two levels at most, counting the versions that have it as a child', () => {
    // detector → a → b: two levels
    expect(stagesProblem(version, [stage('a')], tree(node('detector'), node('a', [stage('b')]), node('b')))).toBe(
      undefined,
    );
    // detector → a → b → c: three
    const deep = tree(node('detector'), node('a', [stage('b')]), node('b', [stage('c')]), node('c'));
    expect(stagesProblem(version, [stage('a')], deep)).toBe('stages nest 2 deep at most: these would make 3');
    // top → detector, and detector → a → b: three, one of them above
    const above = tree(node('top', [stage('detector')]), node('detector'), node('a', [stage('b')]), node('b'));
    expect(stagesProblem(version, [stage('a')], above)).toBe(
      'stages nest 2 deep at most: these would make 3, counting the 1 level of stages above this version',
    );
    expect(stagesProblem(version, [stage('b')], above)).toBeUndefined();
  });
});
