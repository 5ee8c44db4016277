// What the console's maps share (the landmarks page and a device's last
// location): the drawing size, the grid of latitude and longitude that
// stands in for tiles, and the optional tile layer: the URL template the
// landmarks page keeps in this browser, else the server's (MAP_TILE_URL,
// read once at start). The projection is map.ts's.
import { toLatLon, toScreen, visibleTiles, type View } from './map';

/** The map's drawing size; CSS scales it to the page. */
export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 480;
/** localStorage key of the tile URL template (empty: the grid only) */
export const TILES_KEY = 'sense.tileUrl';

/** the server's tile URL template, from /console-settings.json; empty: a grid only */
let serverTiles = '';

/** Reads the server's console settings; a server without them (or unreachable) leaves the grid. */
export async function loadServerTiles(): Promise<void> {
  try {
    const res = await fetch('/console-settings.json');
    if (res.ok) serverTiles = ((await res.json()) as { tileUrl?: string }).tileUrl ?? '';
  } catch {
    // the grid only
  }
}

/** This browser's tile URL template if one was set on the landmarks page (empty: the grid only), else the server's. */
export const storedTiles = (): string => localStorage.getItem(TILES_KEY) ?? serverTiles;

/** Lines of latitude and longitude at a round step for the zoom: the map without tiles. */
export function Grid({ view }: { view: View }) {
  const step = 90 / 2 ** Math.max(0, Math.floor(view.zoom));
  const nw = toLatLon(view, 0, 0);
  const se = toLatLon(view, view.width, view.height);
  // at most six decimals: the step's own (22.5, 0.17578125…), not floating-point noise
  const label = (degrees: number) => String(Number(degrees.toFixed(6)));
  const lines = [];
  for (let lon = Math.ceil(nw.lon / step) * step; lon <= se.lon; lon += step) {
    const [x] = toScreen(view, { lat: 0, lon });
    lines.push(
      <line key={`lon${lon}`} x1={x} x2={x} y1={0} y2={view.height} />,
      <text key={`tlon${lon}`} x={x + 3} y={view.height - 4}>
        {label(lon)}
      </text>,
    );
  }
  for (let lat = Math.ceil(se.lat / step) * step; lat <= nw.lat; lat += step) {
    const [, y] = toScreen(view, { lat, lon: 0 });
    lines.push(
      <line key={`lat${lat}`} x1={0} x2={view.width} y1={y} y2={y} />,
      <text key={`tlat${lat}`} x={3} y={y - 3}>
        {label(lat)}
      </text>,
    );
  }
  return <g class="grid">{lines}</g>;
}

/** The tiles under the view, when a tile URL template is set. */
export function Tiles({ view, template }: { view: View; template: string }) {
  if (!template) return null;
  const size = 256 * 2 ** (view.zoom - Math.round(view.zoom));
  return (
    <>
      {visibleTiles(view, template).map((t) => (
        // A tile that fails to load (a tile server down or unreachable) is hidden, not drawn as a broken image over the map.
        <image
          key={t.url + t.x}
          href={t.url}
          x={t.x}
          y={t.y}
          width={size}
          height={size}
          onError={(e) => e.currentTarget.setAttribute('visibility', 'hidden')}
        />
      ))}
    </>
  );
}
