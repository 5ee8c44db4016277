// The Open Inference Protocol's gRPC front end: GRPCInferenceService from
// proto/inference.proto, served by @grpc/grpc-js over HTTP/2 (TLS with the
// main listener's certificate), every call handed to the one OipService that
// the REST front end calls too. Thin: the bearer key out of the metadata,
// messages converted (oip-messages.ts), errors to status codes
// (oip-status.ts). ModelStreamInfer runs a stream's requests at once, up to a
// bound, and answers each as it completes.
import { readFile } from 'node:fs/promises';
import {
  type Metadata,
  Server,
  ServerCredentials,
  type ServerDuplexStream,
  type ServerUnaryCall,
  type ServiceDefinition,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { type OipCaller, OipError, type OipService } from '../inference/oip/protocol.js';
import {
  loadInferenceService,
  type ModelInferRequestMessage,
  type ModelInferResponseMessage,
  type ModelRequestMessage,
  type ModelStreamInferResponseMessage,
} from './inference-proto.js';
import { inferCallOf, modelInferResponseOf, modelMetadataResponseOf } from './oip-messages.js';
import type { Logger } from '../log.js';
import { grpcStatusOf, streamErrorMessage } from './oip-status.js';

export const OIP_GRPC_TUNING = {
  /**
   * A stream's requests in flight at once (running, or answered but not yet
   * taken by the client): past it the stream stops reading, so HTTP/2 flow
   * control holds the client back instead of the server's memory.
   */
  streamInFlight: 64,
} as const;

export interface OipGrpcServerOptions {
  host: string;
  /** 0: a free port, chosen by the system */
  port: number;
  /** the main listener's TLS_CERT / TLS_KEY files; undefined: plaintext HTTP/2 */
  tls: { certFile: string; keyFile: string } | undefined;
  /**
   * The largest request message taken (grpc.max_receive_message_length):
   * the images of a batch at MAX_IMAGE_BYTES each, or a tensor, and the
   * message around them; larger ones are refused RESOURCE_EXHAUSTED before
   * they are read whole.
   */
  maxMessageBytes: number;
  /** where a call's unexpected failure is logged */
  log: Logger;
}

/** A message that did not decode: answered INVALID_ARGUMENT, rather than grpc-js's INTERNAL. */
class Undecodable {
  constructor(readonly reason: string) {}
}

/** The service's methods with each request decoder made total: a message that does not decode becomes an Undecodable. */
function tolerantService(): ServiceDefinition {
  const service = loadInferenceService();
  return Object.fromEntries(
    Object.entries(service).map(([name, method]) => [
      name,
      {
        ...method,
        requestDeserialize: (bytes: Buffer) => {
          try {
            return method.requestDeserialize(bytes);
          } catch (error) {
            return new Undecodable((error as Error).message);
          }
        },
      },
    ]),
  ) as ServiceDefinition;
}

function decoded<T>(message: T | Undecodable, name: string): T {
  if (message instanceof Undecodable) {
    throw new OipError('invalid', `the ${name} message does not decode: ${message.reason}`, 'INVALID');
  }
  return message;
}

/** The key of `authorization: Bearer <key>`; undefined when the metadata holds none. */
function bearerKey(metadata: Metadata): string | undefined {
  const value = metadata.get('authorization')[0];
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}

/** One ModelStreamInfer stream: its requests in flight, and how it ends when the server drains. */
interface OpenStream {
  drain(): void;
}

export class OipGrpcServer {
  private server: Server | undefined;
  private readonly streams = new Set<OpenStream>();
  private draining = false;

  constructor(
    private readonly service: OipService,
    private readonly options: OipGrpcServerOptions,
  ) {}

  /** Listens; resolves with the port (the one the system chose when the options said 0). */
  async listen(): Promise<number> {
    const { host, port, tls, maxMessageBytes } = this.options;
    const credentials = tls
      ? ServerCredentials.createSsl(null, [
          { cert_chain: await readFile(tls.certFile), private_key: await readFile(tls.keyFile) },
        ])
      : ServerCredentials.createInsecure();
    const server = new Server({
      'grpc.max_receive_message_length': maxMessageBytes,
      // Channelz (gRPC's introspection service, which this server does not
      // serve) otherwise counts every call and message with a closure and
      // timestamps of its own.
      'grpc.enable_channelz': 0,
    });
    server.addService(tolerantService(), {
      ServerLive: this.unary('ServerLive', () => ({ live: this.service.live() })),
      ServerReady: this.unary('ServerReady', () => ({ ready: this.service.ready() })),
      ServerMetadata: this.unary('ServerMetadata', () => this.service.serverMetadata()),
      ModelReady: this.unary('ModelReady', (message: ModelRequestMessage, metadata) => ({
        ready: this.service.modelReady(this.caller(metadata), message.name ?? '', message.version || undefined),
      })),
      ModelMetadata: this.unary('ModelMetadata', (message: ModelRequestMessage, metadata) =>
        modelMetadataResponseOf(
          this.service.modelMetadata(this.caller(metadata), message.name ?? '', message.version || undefined),
        ),
      ),
      ModelInfer: this.unary('ModelInfer', (message: ModelInferRequestMessage, metadata) =>
        this.infer(this.caller(metadata), message),
      ),
      ModelStreamInfer: (
        call: ServerDuplexStream<ModelInferRequestMessage | Undecodable, ModelStreamInferResponseMessage>,
      ) => this.stream(call),
    });
    const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    let bound: number;
    try {
      bound = await new Promise<number>((resolve, reject) =>
        server.bindAsync(address, credentials, (error, chosen) => (error ? reject(error) : resolve(chosen))),
      );
    } catch (error) {
      server.forceShutdown();
      throw error;
    }
    this.server = server;
    return bound;
  }

  /**
   * Stops taking calls and waits for those in flight: new connections and
   * calls are refused, open streams answer what they hold and end; past
   * `timeoutMs` whatever is left is cut.
   */
  async close(timeoutMs: number): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.draining = true;
    for (const stream of this.streams) stream.drain();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, timeoutMs);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private caller(metadata: Metadata): OipCaller {
    return this.service.authenticate(bearerKey(metadata));
  }

  private async infer(caller: OipCaller, message: ModelInferRequestMessage): Promise<ModelInferResponseMessage> {
    const { modelName, modelVersion, request } = inferCallOf(message);
    return modelInferResponseOf(await this.service.infer(caller, modelName, modelVersion, request));
  }

  /** A unary method: its answer, or its error's status. */
  private unary<Request, Response>(
    name: string,
    run: (message: Request, metadata: Metadata) => Response | Promise<Response>,
  ): (call: ServerUnaryCall<Request | Undecodable, Response>, callback: sendUnaryData<Response>) => void {
    return (call, callback) => {
      new Promise<Response>((resolve) => resolve(run(decoded(call.request, `${name} request`), call.metadata))).then(
        (answer) => callback(null, answer),
        (error: unknown) => callback(grpcStatusOf(error, this.options.log)),
      );
    };
  }

  /**
   * ModelStreamInfer: the key checked when the stream opens (a bad one ends
   * it UNAUTHENTICATED) and again for each request, so that a key disabled
   * meanwhile stops a long stream. Each request runs as soon as it arrives
   * and is answered when it completes, its `id` echoed (an error too:
   * error_message, and the id in infer_response), so answers come in order
   * of completion. At most streamInFlight requests run or wait to be written
   * at once.
   */
  private stream(
    call: ServerDuplexStream<ModelInferRequestMessage | Undecodable, ModelStreamInferResponseMessage>,
  ): void {
    try {
      this.caller(call.metadata);
    } catch (error) {
      call.emit('error', grpcStatusOf(error, this.options.log));
      return;
    }
    let inFlight = 0;
    let clientDone = false;
    let ended = false;
    const open: OpenStream = { drain: () => endIfIdle() };
    const endIfIdle = () => {
      if (ended || inFlight > 0 || !(clientDone || this.draining)) return;
      ended = true;
      this.streams.delete(open);
      call.end();
    };
    const answered = () => {
      inFlight--;
      if (call.isPaused() && inFlight < OIP_GRPC_TUNING.streamInFlight) call.resume();
      endIfIdle();
    };
    const answer = (response: ModelStreamInferResponseMessage) => {
      if (ended || call.cancelled) return;
      call.write(response, answered);
    };
    this.streams.add(open);
    call.on('data', (message: ModelInferRequestMessage | Undecodable) => {
      if (ended) return;
      inFlight++;
      if (inFlight >= OIP_GRPC_TUNING.streamInFlight) call.pause();
      const id = message instanceof Undecodable ? undefined : message.id;
      const run = this.draining
        ? Promise.reject(new OipError('unavailable', 'the server is shutting down', 'UNAVAILABLE'))
        : new Promise<ModelInferResponseMessage>((resolve) =>
            resolve(this.infer(this.caller(call.metadata), decoded(message, 'ModelInferRequest'))),
          );
      run.then(
        (response) => answer({ infer_response: response }),
        (error: unknown) =>
          answer({
            error_message: streamErrorMessage(grpcStatusOf(error, this.options.log)),
            infer_response: {
              model_name: message instanceof Undecodable ? '' : (message.model_name ?? ''),
              model_version: message instanceof Undecodable ? '' : (message.model_version ?? ''),
              ...(id ? { id } : {}),
              outputs: [],
              raw_output_contents: [],
            },
          }),
      );
    });
    call.on('end', () => {
      clientDone = true;
      endIfIdle();
    });
    call.on('cancelled', () => {
      ended = true;
      this.streams.delete(open);
    });
  }
}
