// Web Mercator arithmetic for the landmark map: the projection tile servers
// use (OpenStreetMap's included), so shapes and optional tiles line up.
export interface LatLon {
  lat: number;
  lon: number;
}

export interface View {
  center: LatLon;
  zoom: number;
  width: number;
  height: number;
}

const TILE = 256;
const EARTH_RADIUS = 6_378_137;
const MAX_LAT = 85.05112878;

/** World pixels at `zoom` of a point. */
function world(p: LatLon, zoom: number): [number, number] {
  const size = TILE * 2 ** zoom;
  const lat = (Math.max(-MAX_LAT, Math.min(MAX_LAT, p.lat)) * Math.PI) / 180;
  return [((p.lon + 180) / 360) * size, ((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * size];
}

export function toScreen(view: View, p: LatLon): [number, number] {
  const [x, y] = world(p, view.zoom);
  const [cx, cy] = world(view.center, view.zoom);
  return [x - cx + view.width / 2, y - cy + view.height / 2];
}

export function toLatLon(view: View, x: number, y: number): LatLon {
  const size = TILE * 2 ** view.zoom;
  const [cx, cy] = world(view.center, view.zoom);
  const wx = x - view.width / 2 + cx;
  const wy = y - view.height / 2 + cy;
  const lon = (wx / size) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * wy) / size))) * 180) / Math.PI;
  return { lat, lon };
}

/** Metres per screen pixel at a latitude: how a circle's radius is drawn. */
export function metresPerPixel(view: View, lat: number): number {
  return (2 * Math.PI * EARTH_RADIUS * Math.cos((lat * Math.PI) / 180)) / (TILE * 2 ** view.zoom);
}

/** Great-circle distance in metres. */
export function distance(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.sqrt(h));
}

/** The tiles covering the view, for a tile URL template with {z}, {x}, {y}. */
export function visibleTiles(view: View, template: string): Array<{ url: string; x: number; y: number }> {
  const z = Math.round(view.zoom);
  const scale = 2 ** (view.zoom - z);
  const n = 2 ** z;
  const [cx, cy] = world(view.center, z);
  const left = cx - view.width / 2 / scale;
  const top = cy - view.height / 2 / scale;
  const tiles = [];
  for (let ty = Math.floor(top / TILE); ty * TILE < top + view.height / scale; ty++) {
    if (ty < 0 || ty >= n) continue;
    for (let tx = Math.floor(left / TILE); tx * TILE < left + view.width / scale; tx++) {
      const wrapped = ((tx % n) + n) % n;
      tiles.push({
        url: template.replace('{z}', String(z)).replace('{x}', String(wrapped)).replace('{y}', String(ty)),
        x: (tx * TILE - left) * scale,
        y: (ty * TILE - top) * scale,
      });
    }
  }
  return tiles;
}

/**
 * The view that shows the box around `points` whole, with a margin of
 * `margin` (a fraction of the view) on every side, at a zoom of at most
 * `maxZoom`; a single point gets `maxZoom`.
 */
export function fitView(
  points: readonly LatLon[],
  width: number,
  height: number,
  { margin = 0.1, maxZoom = 18 } = {},
): View {
  const lats = points.map((p) => p.lat);
  const lons = points.map((p) => p.lon);
  const south = Math.min(...lats);
  const north = Math.max(...lats);
  const west = Math.min(...lons);
  const east = Math.max(...lons);
  // World pixels at zoom 0; each zoom level doubles them.
  const [x0, y0] = world({ lat: north, lon: west }, 0);
  const [x1, y1] = world({ lat: south, lon: east }, 0);
  const usable = 1 - 2 * margin;
  const fits = Math.min((width * usable) / Math.max(x1 - x0, 1e-9), (height * usable) / Math.max(y1 - y0, 1e-9));
  const zoom = Math.min(maxZoom, Math.max(1, Math.log2(fits)));
  const size = TILE * 2 ** zoom;
  const cx = ((x0 + x1) / 2 / TILE) * size;
  const cy = ((y0 + y1) / 2 / TILE) * size;
  const lon = (cx / size) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * cy) / size))) * 180) / Math.PI;
  return { center: { lat, lon }, zoom, width, height };
}

/** The corners of the box around a circle of `radius` metres: what a view must hold to show it whole. */
export function circleBox(center: LatLon, radius: number): [LatLon, LatLon] {
  const dLat = (radius / EARTH_RADIUS) * (180 / Math.PI);
  const dLon = dLat / Math.max(Math.cos((center.lat * Math.PI) / 180), 1e-6);
  return [
    { lat: center.lat - dLat, lon: center.lon - dLon },
    { lat: center.lat + dLat, lon: center.lon + dLon },
  ];
}
