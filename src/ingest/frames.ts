// Camera frames (POST /v1/iot/frames): a camera is a device with a vision
// profile (platform/vision.ts). A frame is run through its profile's model
// version with predict's admission (the organization's share, the
// version's queue shared fairly between organizations:
// inference/scheduling/admission.ts) and becomes one event (source 'iot') carrying its
// detections, each with the zones it lies in (and the children its
// version's child stages answered in it), and how many of each label each
// zone holds (and of each label with each child label); rules read them
// through a `detections` condition (platform/rules/evaluate.ts). The event
// goes through the same group commit as every other (rules, exactly-once actions). A frame id makes a retry land on the
// event already stored: it is looked up before the frame is run, and the
// stored event is answered, whatever the retry's image (and even once the
// model version is gone). Frame ids have their own idempotency keys (`f:`),
// apart from the Idempotency-Keys of IoT events (`k:`), so neither can be
// answered with the other's event. The frame's image is kept only when the
// profile says so (platform/kept-frames.ts), before its event is written,
// so that an event that says `frameKept` names an image that was kept.
// Each camera's boxes are tracked across its frames (camera-tracks.ts): a
// box that continues an object carries the object's `trackId`.
import type { Sql } from 'postgres';
import { storedKeyedEvent, UNIQUE_KEY_PREFIX } from '../db/events.js';
import { invalid } from '../errors.js';
import { newId } from '../ids.js';
import { bufferedBody, type PredictAdmission } from '../inference/scheduling/admission.js';
import { predictOptions } from '../inference/predict-options.js';
import { extractImage } from '../inference/pipeline/request-body.js';
import type { DeployedVersion } from '../inference/inference-service.js';
import { zonesOf, type ImageZone, type PlacedDetection } from '../lib/image-zones.js';
import type { DeviceClaims } from '../platform/auth/tokens.js';
import type { KeptFrames } from '../platform/kept-frames.js';
import { hasChild } from '../platform/rules/evaluate.js';
import type { VisionService } from '../platform/vision.js';
import type { CameraTracks, ObjectMoves } from './camera-tracks.js';
import type { EventWriter } from './event-writer.js';
import { digest, type IngestService } from './ingest-service.js';

export interface Frame {
  /** the body as predict takes it: multipart with a `file` part, or JSON `{"image": base64}`; transferred to a worker */
  body: Uint8Array;
  contentType: string;
  /** the camera's own id of the frame: a retry with the same id is stored once */
  frameId?: string | undefined;
  /** when the camera took it */
  time?: Date | undefined;
}

/** A predict answer: detections grouped by label. */
export type DetectionsByLabel = Record<string, FrameDetection[]>;

/** A detection of a predict answer, as a frame's event reads it. */
interface FrameDetection extends PlacedDetection {
  /** what the version's child stages answered inside it, by the child's labels (docs/API.md#child-stages) */
  children?: DetectionsByLabel;
}

/** parent label → child label → how many detections of the parent label hold a child detection of the child label */
type ChildCounts = Record<string, Record<string, number>>;

export interface FrameAnswer {
  /** the frame's event (for a retried frame id, the one stored first) */
  eventId: string;
  /** the predict answer */
  detections: DetectionsByLabel;
  /** why the frame's image was not kept, when its profile keeps frames */
  frameNotKept?: string;
}

/** What a frame's event carries (its payload). */
export interface FramePayload {
  frameId?: string;
  modelVersionId: string;
  /** the predict answer, each detection with the names of the zones it lies in */
  detections: Record<string, Array<PlacedDetection & { zones: string[] }>>;
  /** label → how many detections of it the frame has */
  counts: Record<string, number>;
  /** zone → label → how many detections of it lie in the zone (zones with none: {}) */
  zoneCounts: Record<string, Record<string, number>>;
  /**
   * parent label → child label → how many detections of the parent label
   * have at least one child detection of the child label (what a
   * detections condition with `child` counts); only when a detection has children
   */
  childCounts?: ChildCounts;
  /** zone → the same for the detections that lie in the zone (zones with none: {}); beside childCounts */
  zoneChildCounts?: Record<string, ChildCounts>;
  /** true when the frame's image is kept (GET /v2/devices/{device}/frames/{event}) */
  frameKept?: true;
  /** the profile's lines that tracked objects crossed in this frame, when any did */
  crossings?: ObjectMoves['crossings'];
  /** the zones tracked objects entered in this frame (after each zone's inertia), when any did */
  entries?: ObjectMoves['entries'];
}

export class FrameIngest {
  constructor(
    private readonly sql: Sql,
    private readonly ingest: IngestService,
    private readonly writer: EventWriter,
    private readonly vision: VisionService,
    private readonly admission: PredictAdmission<DeployedVersion>,
    private readonly kept: KeptFrames,
    private readonly maxImageBytes: number,
    private readonly tracks: CameraTracks,
  ) {}

  /** Runs a camera's frame and stores its event; resolves once committed. */
  async submit(device: DeviceClaims, frame: Frame): Promise<FrameAnswer> {
    const profile = await this.vision.ofDevice(device.organizationId, device.deviceId);
    if (!profile) {
      throw invalid(
        'this device is not a camera',
        'it has no vision profile: set one with PUT /v2/devices/{deviceId}/vision',
      );
    }
    const limiting = this.ingest.rateLimit(device, 1);
    if (limiting) await limiting;
    const dedupKey = frame.frameId === undefined ? undefined : frameDedupKey(frame.frameId);
    const retried = dedupKey && (await storedKeyedEvent(this.sql, device.deviceId, dedupKey));
    if (retried) return storedAnswer(retried);

    // Its place in the camera's tracking order is taken as it arrives, and given up if it goes no further.
    const turn = this.tracks.turn(device.deviceId, profile);
    let detections: DetectionsByLabel;
    let copy: Uint8Array | undefined;
    try {
      const admitted = this.admission.admit(profile.modelVersionId, device.organizationId);
      const options = predictOptions(profile.options, admitted.version.config.defaults);
      // The body's memory is held already (its route reads it buffered): the pass asks for none.
      const pass = this.admission.enter(admitted, 0);
      // The body is handed to a worker (transferred): a frame to keep is copied first.
      copy = profile.keepFrames ? frame.body.slice() : undefined;
      const answer = await pass.run(bufferedBody(frame.body), frame.contentType, options);
      detections = JSON.parse(answer!.json) as DetectionsByLabel; // a frame's pass is never abandoned: it resolves its answer
    } catch (error) {
      turn.pass();
      throw error;
    }
    // The frame's time: when the camera took it, else now (an object's time in a zone is counted on it).
    const moves = await turn.track(detections, (frame.time ?? new Date()).getTime());

    const id = newId();
    // Its image before its event: the model read it, so it is one.
    const keeping =
      copy &&
      (await this.kept.keep({
        eventId: id,
        organizationId: device.organizationId,
        deviceId: device.deviceId,
        image: extractImage(frame.contentType, copy, this.maxImageBytes),
      }));
    const frameKept = keeping !== undefined && keeping.kept;
    await this.writer.write([
      {
        id,
        organizationId: device.organizationId,
        channelId: device.channelId,
        deviceId: device.deviceId,
        source: 'iot',
        camera: true,
        serverReceivedAt: new Date(),
        clientSentAt: frame.time ?? null,
        payload: framePayload(
          profile.modelVersionId,
          frame.frameId,
          detections,
          profile.zones,
          frameKept,
          moves,
        ) as unknown as Record<string, unknown>,
        dedupKey: dedupKey ?? `${UNIQUE_KEY_PREFIX}${id}`,
      },
    ]);
    // The same frame id sent twice at once: the event stored first stands (and the frame kept with it).
    const stored = dedupKey && (await storedKeyedEvent(this.sql, device.deviceId, dedupKey));
    if (stored && stored.id !== id) {
      if (frameKept) await this.kept.discard(device.organizationId, id);
      return storedAnswer(stored);
    }
    return { eventId: id, detections, ...(keeping && !keeping.kept && { frameNotKept: keeping.reason }) };
  }
}

/** A frame id's idempotency key: its own namespace, apart from Idempotency-Keys (`k:`) and content keys (`p:`). */
const frameDedupKey = (frameId: string) => `f:${digest(frameId)}`;

/** The answer to a retried frame: its stored event, with the detections as predict answered them (without their zones). */
function storedAnswer(event: { id: string; payload: Record<string, unknown> }): FrameAnswer {
  const placed = (event.payload as unknown as FramePayload).detections;
  const detections = Object.fromEntries(
    Object.entries(placed).map(([label, list]) => [label, list.map(({ zones: _zones, ...detection }) => detection)]),
  );
  return { eventId: event.id, detections };
}

/**
 * The event of a frame: its detections placed in the zones (each with its
 * `children` as the predict answer gives them), and the counts rules read.
 */
export function framePayload(
  modelVersionId: string,
  frameId: string | undefined,
  detections: DetectionsByLabel,
  zones: readonly ImageZone[],
  frameKept = false,
  moves: ObjectMoves = { crossings: [], entries: [] },
): FramePayload {
  const placed: FramePayload['detections'] = {};
  const counts: Record<string, number> = {};
  const zoneCounts: FramePayload['zoneCounts'] = Object.fromEntries(zones.map((zone) => [zone.name, {}]));
  const childCounts: ChildCounts = {};
  const zoneChildCounts: Record<string, ChildCounts> = Object.fromEntries(zones.map((zone) => [zone.name, {}]));
  let withChildren = false;
  for (const [label, list] of Object.entries(detections)) {
    counts[label] = list.length;
    placed[label] = list.map((detection) => {
      const inZones = zonesOf(detection, zones);
      for (const zone of inZones) zoneCounts[zone]![label] = (zoneCounts[zone]![label] ?? 0) + 1;
      // Each child label once per detection, however many of its detections the child answered.
      for (const child of Object.keys(detection.children ?? {})) {
        if (!hasChild(detection.children, child)) continue;
        withChildren = true;
        countChild(childCounts, label, child);
        for (const zone of inZones) countChild(zoneChildCounts[zone]!, label, child);
      }
      return { ...detection, zones: inZones };
    });
  }
  return {
    ...(frameId !== undefined && { frameId }),
    modelVersionId,
    detections: placed,
    counts,
    zoneCounts,
    ...(withChildren ? { childCounts, zoneChildCounts } : {}),
    ...(frameKept && { frameKept: true as const }),
    ...(moves.crossings.length > 0 && { crossings: moves.crossings }),
    ...(moves.entries.length > 0 && { entries: moves.entries }),
  };
}

/** One more detection of `label` with a child of `child` (own keys only: a label may be any text, `toString` too). */
function countChild(counts: ChildCounts, label: string, child: string): void {
  const byChild = Object.hasOwn(counts, label) ? counts[label]! : (counts[label] = {});
  byChild[child] = (Object.hasOwn(byChild, child) ? byChild[child]! : 0) + 1;
}
