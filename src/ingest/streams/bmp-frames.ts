// Frames out of ffmpeg's stdout: ffmpeg writes each decoded frame as a BMP
// (`-c:v bmp -f image2pipe`), raw pixels behind a 54-byte header that holds
// the file's size, so the stream splits into frames without parsing any
// pixels, and each frame goes to the pipeline as an image the native addon
// reads with a copy (inference/pipeline/decode-image.ts): no JPEG round trip.
// A frame larger than the bound, or bytes that are no BMP, end the stream:
// ffmpeg was told the size, so either means something else is talking.

const HEADER_BYTES = 14;

export class BmpFrames {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly maxFrameBytes: number) {}

  /** The frames completed by `chunk`, in order; throws on bytes that are no BMP frame. */
  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const frames: Buffer[] = [];
    while (this.buffered >= HEADER_BYTES) {
      const head = this.chunks.length === 1 ? this.chunks[0]! : this.join();
      if (head[0] !== 0x42 || head[1] !== 0x4d) throw new Error('the stream is not a sequence of BMP frames');
      const size = head.readUInt32LE(2);
      if (size < 54 || size > this.maxFrameBytes)
        throw new Error(`a frame of ${size} bytes is outside the bounds (54 to ${this.maxFrameBytes})`);
      if (this.buffered < size) break;
      const all = this.join();
      // A copy: the frame is handed to a worker (transferred), the rest stays here.
      frames.push(Buffer.from(all.subarray(0, size)));
      const rest = all.subarray(size);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
    }
    return frames;
  }

  private join(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0]!;
  }
}
