// Cameras on loopback for the stream tests and the streams benchmark: an
// MJPEG camera over HTTP (multipart/x-mixed-replace, the clip in a loop at
// its rate, from its first frame for each client), and an RTSP server
// (GStreamer's, through Debian's python3: test/helpers/rtsp-server.py)
// serving an H.264 Matroska file.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { CLIP } from './moving-shapes.js';
import { ROOT } from './server.js';

/** Whether Debian's python3 with GStreamer's RTSP server is installed here. */
export const rtspServerInstalled =
  existsSync('/usr/bin/python3') && existsSync('/usr/lib/x86_64-linux-gnu/girepository-1.0/GstRtspServer-1.0.typelib');

export interface MjpegCamera {
  url: string;
  /** the camera goes away: its listener and every connection closed */
  stop(): void;
}

/** An MJPEG camera on 127.0.0.1 (`port`: 0 for a free one) sending `frames` in a loop at the clip's rate. */
export async function startMjpegCamera(frames: readonly Buffer[], port = 0): Promise<MjpegCamera> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=frame' });
    let i = 0;
    const timer = setInterval(() => {
      const jpeg = frames[i++ % frames.length]!;
      res.write(`--frame\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`);
      res.write(jpeg);
      res.write('\r\n');
    }, 1000 / CLIP.fps);
    res.on('close', () => clearInterval(timer));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/video.mjpg`,
    stop: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

export interface RtspServer {
  url: string;
  stop(): void;
}

/** GStreamer's RTSP server on a free port of 127.0.0.1, serving `file` (H.264 Matroska) at /clip. */
export async function startRtspServer(file: string): Promise<RtspServer> {
  const child: ChildProcess = spawn('/usr/bin/python3', [join(ROOT, 'test/helpers/rtsp-server.py'), '0', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const ready = /ready (\d+)/.exec(chunk.toString());
      if (ready) resolve(ready[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the RTSP server exited (${code})`)));
  });
  return { url: `rtsp://127.0.0.1:${port}/clip`, stop: () => child.kill() };
}
