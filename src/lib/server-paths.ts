// Text a tenant reads (a version's status reason, a predict error) names no
// file of the server: ONNX Runtime and Node say "Load model from
// /srv/sense/data/models/<id>/model.onnx failed", which tells a stranger
// where the server keeps its data. Each absolute path becomes its last
// part ("model.onnx"); the log keeps the whole text for the operator.
const ABSOLUTE_PATH = /(?<![\w.:/])\/(?:[^\s/'"()`:,;]+\/)+([^\s/'"()`:,;]+)/g;

export function withoutServerPaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, '$1');
}
