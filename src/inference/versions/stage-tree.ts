// Whether a version's child stages make a tree the server can run: each
// stage names labels the version answers and a version the organization
// can run (its own or a public one), no stage leads back to the version (a
// cycle would never end), and the tree is at most MAX_STAGE_DEPTH stages
// deep, counting the versions that already have this one as a child.
// Pure: the caller reads the versions the organization can see.
import { MAX_STAGE_DEPTH, type Stage, storedModelConfig } from './model-config.js';

/** A version as the check needs it. */
export interface StageNode {
  id: string;
  organizationId: string;
  public: boolean;
  stages: readonly Stage[];
}

/**
 * Why `stages` cannot be the stages of `version` (labels: the version's),
 * or undefined when they can. `versions`: every version the organization
 * can see, by id.
 */
export function stagesProblem(
  version: { id: string; organizationId: string; labels: readonly string[] },
  stages: readonly Stage[],
  versions: ReadonlyMap<string, StageNode>,
): string | undefined {
  const labels = new Set(version.labels);
  for (const [i, stage] of stages.entries()) {
    const missing = stage.labels.find((label) => !labels.has(label));
    if (missing !== undefined) return `stages[${i}].labels: "${missing}" is not one of this version's labels`;
    const child = versions.get(stage.modelVersionId);
    if (!child || (child.organizationId !== version.organizationId && !child.public))
      return `stages[${i}].modelVersionId: ${stage.modelVersionId} is not a version this organization can run`;
    if (child.id === version.id || reaches(child, version.id, versions))
      return `stages[${i}].modelVersionId: ${stage.modelVersionId} leads back to this version; stages cannot form a cycle`;
  }
  const below = stages.length === 0 ? 0 : 1 + Math.max(...stages.map((s) => height(s.modelVersionId, versions)));
  const above = depthAbove(version.id, versions);
  if (above + below > MAX_STAGE_DEPTH) {
    const where = above > 0 ? `, counting the ${above} level${above > 1 ? 's' : ''} of stages above this version` : '';
    return `stages nest ${MAX_STAGE_DEPTH} deep at most: these would make ${above + below}${where}`;
  }
  return undefined;
}

/** Whether `target` is among the versions `from`'s stages lead to. */
function reaches(from: StageNode, target: string, versions: ReadonlyMap<string, StageNode>): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const stage of node.stages) {
      if (stage.modelVersionId === target) return true;
      const next = versions.get(stage.modelVersionId);
      if (next && !seen.has(next.id)) {
        seen.add(next.id);
        stack.push(next);
      }
    }
  }
  return false;
}

/** Levels of stages below a version (0: none); a loop already stored counts as deep as it may go. */
function height(id: string, versions: ReadonlyMap<string, StageNode>, path: ReadonlySet<string> = new Set()): number {
  const node = versions.get(id);
  if (!node || node.stages.length === 0) return 0;
  if (path.has(id)) return MAX_STAGE_DEPTH;
  const next = new Set(path).add(id);
  return 1 + Math.max(...node.stages.map((s) => height(s.modelVersionId, versions, next)));
}

/** Levels of stages above a version: the longest chain of versions that have it as a child. */
function depthAbove(
  id: string,
  versions: ReadonlyMap<string, StageNode>,
  path: ReadonlySet<string> = new Set(),
): number {
  if (path.has(id)) return MAX_STAGE_DEPTH;
  const next = new Set(path).add(id);
  let deepest = 0;
  for (const node of versions.values()) {
    if (node.stages.some((s) => s.modelVersionId === id))
      deepest = Math.max(deepest, 1 + depthAbove(node.id, versions, next));
  }
  return deepest;
}

/** Registered versions (their stored configs) as the check's nodes, by id. */
export function stageNodes(
  versions: ReadonlyArray<{ id: string; organizationId: string; public: boolean; config: unknown }>,
): Map<string, StageNode> {
  return new Map(
    versions.map((v) => [
      v.id,
      // a config stored before stages existed has none
      {
        id: v.id,
        organizationId: v.organizationId,
        public: v.public,
        stages: storedModelConfig(v.config).stages ?? [],
      },
    ]),
  );
}
