// Composition root: wires configuration, database, platform, inference and
// HTTP together, and takes them apart again in reverse order on shutdown.
import { fileURLToPath } from 'node:url';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { endpointRoutes, type Authenticators, type Endpoint } from './http/api.js';
import { CorsPolicy } from './http/cors.js';
import { buildOpenApi } from './http/openapi.js';
import { metricsAccess } from './http/metrics-access.js';
import { healthEndpoints } from './http/routes/health.js';
import { ingestEndpoints } from './http/routes/ingest.js';
import { DeviceReadModel } from './ingest/device-reads.js';
import { EventWriter } from './ingest/event-writer.js';
import { EventPartitionMaintenance } from './ingest/event-partitions.js';
import { IngestService } from './ingest/ingest-service.js';
import { CameraTracks } from './ingest/camera-tracks.js';
import { FrameIngest } from './ingest/frames.js';
import { StreamSupervisor } from './ingest/streams/stream-supervisor.js';
import { openObjectEvents } from './db/object-events.js';
import { managementEndpoints } from './http/routes/v2/index.js';
import { cameraStreamEndpoints } from './http/routes/v2/camera-streams.js';
import { predictEndpoint } from './http/routes/predict.js';
import { frameEndpoints } from './http/routes/frames.js';
import { predictErrors } from './inference/predict-errors.js';
import { UploadRateWatch } from './http/slow-bodies.js';
import { loadStaticSite, sharedWithConsole, staticSiteRoute, type ConsoleSettings } from './http/static-site.js';
import { BodyBudget } from './lib/body-budget.js';
import { PredictAdmission } from './inference/scheduling/admission.js';
import type { HttpContext } from './http/context.js';
import { InFlight } from './http/draining.js';
import { unmatchedRoute, type Route } from './http/router.js';
import { HttpServer } from './http/server.js';
import type { ApiError } from './http/errors.js';
import { oipErrorBody, oipRoutes } from './http/oip/routes.js';
import { OipCore } from './inference/oip/service.js';
import { OipGrpcServer } from './grpc/oip-grpc-server.js';
import { loadUws } from './http/uws.js';
import { engineSettings, InferenceEngine } from './inference/inference-engine.js';
import { modelValidationSettings } from './inference/versions/model-validation.js';
import { InferenceService } from './inference/inference-service.js';
import { ModelFiles } from './inference/versions/model-store.js';
import { jpegDecoder } from './inference/pipeline/decode-image.js';
import { native } from './inference/native.js';
import { trimWhenIdle } from './lib/idle-trim.js';
import type { Logger } from './log.js';
import { createServerMetrics, Gauge, type Registry } from './observability/metrics.js';
import { AccountService } from './platform/accounts.js';
import { createAuthenticator } from './platform/auth/authenticator.js';
import { TokenService } from './platform/auth/tokens.js';
import { bootstrap } from './platform/bootstrap.js';
import { ChannelKeyService } from './platform/channel-keys.js';
import { ChannelService } from './platform/channels.js';
import { DeviceService } from './platform/devices.js';
import { EventService } from './platform/events.js';
import { GatewayService } from './platform/gateways.js';
import { LandmarkService } from './platform/landmarks.js';
import { ModelService } from './platform/models.js';
import { ModelNameIndex } from './platform/model-names.js';
import { ProjectService } from './platform/projects.js';
import { ReadinessCheck } from './platform/readiness.js';
import { SchemaService } from './platform/schemas.js';
import { VisionService } from './platform/vision.js';
import type { PlatformServices } from './platform/services.js';
import { OutboxSender, smtpTransport } from './platform/outbox.js';
import { bearerToken, InferenceKeyCache, InferenceKeyService } from './platform/inference-keys.js';
import { Replica } from './platform/replicas.js';
import { DevicePresence } from './platform/presence.js';
import { DeviceCommands } from './platform/device-commands.js';
import { createModelStore } from './platform/database-model-store.js';
import { FrameBucket, KeptFrames } from './platform/kept-frames.js';
import { DatabaseVersionRegistry } from './platform/model-version-registry.js';
import { EventTail } from './platform/event-tail.js';
import { loadSecretsKey, Secrets } from './platform/secrets.js';
import { RuleDeliveryService } from './platform/rules/deliveries.js';
import { RulesEngine } from './platform/rules/rules-engine.js';
import { KnownDevices } from './platform/rules/known-devices.js';
import { RuleService } from './platform/rules/rule-service.js';
import { ActionRunner, outboxSms } from './platform/rules/action-runner.js';
import { parseAllowList } from './platform/rules/ssrf-guard.js';
import { sealStoredWebhookSecrets } from './platform/rules/seal-stored.js';
import { MqttServer } from './mqtt/mqtt-server.js';
import { BrokerSubscriber } from './mqtt/broker-subscriber.js';
import { MqttHooks } from './ingest/mqtt-hooks.js';
import { mqttHookEndpoints } from './http/routes/mqtt-hooks.js';

export interface RunningServer {
  port: number;
  /** the Open Inference Protocol's REST port; undefined when OIP_HTTP_PORT=0 */
  oipHttpPort: number | undefined;
  /** the Open Inference Protocol's gRPC port; undefined when OIP_GRPC_PORT=0 */
  oipGrpcPort: number | undefined;
  /** the MQTT ports listening (MQTT_PORT, MQTTS_PORT), where on */
  mqttPorts: number[];
  inference: InferenceService;
  database: Database;
  /** Stops accepting, drains in-flight requests, then closes workers and the database. */
  stop(): Promise<void>;
}

interface Listener {
  name: string;
  port: number;
  routes: Route[];
  /** the port's error answers in another protocol's shape */
  errorBody?: (error: ApiError) => string;
}

/** One port of the server (HTTPS with TLS_CERT/TLS_KEY); resolves with the port it listens on. */
async function listen(server: HttpServer, config: Config, listener: Listener, log: Logger): Promise<number> {
  const port = await server.listen(
    {
      host: config.host,
      port: listener.port,
      tls: config.tls,
      ...(listener.errorBody && { errorBody: listener.errorBody }),
    },
    listener.routes,
  );
  log.info(listener.name, {
    host: config.host,
    port,
    tls: config.tls !== undefined,
    workers: config.workers,
    instances: config.instances.kind,
    providers: config.executionProviders.join(','),
  });
  return port;
}

/** The OIP REST listener's name, in its start line (`oip rest listening host=… port=…`). */
const OIP_REST_LISTENER = 'oip rest listening';

/**
 * The largest Open Inference Protocol body read: four of the largest images
 * in base64 JSON (MAX_IMAGE_BYTES each), or more smaller ones.
 */
function oipBodyLimit(maxImageBytes: number): number {
  return 4 * (Math.ceil(maxImageBytes / 3) * 4 + 64 * 1024);
}

/**
 * MQTT for devices (src/mqtt/) on MQTT_PORT and, with TLS, MQTTS_PORT: the
 * same ingestion service as the HTTP routes. Undefined when both are off.
 */
async function startMqtt(
  config: Config,
  ingest: IngestService,
  presence: DevicePresence,
  commands: DeviceCommands,
  registry: Registry,
  log: Logger,
): Promise<{ server: MqttServer; ports: number[] } | undefined> {
  const { port, tlsPort } = config.mqtt;
  if (port === 0 && tlsPort === 0) return undefined;
  const server = new MqttServer(
    ingest,
    {
      receiveMaximum: config.mqtt.receiveMaximum,
      maxKeepAliveSeconds: config.mqtt.maxKeepAliveSeconds,
      maxConnectionsPerOrganization: config.mqtt.maxConnectionsPerOrganization,
      maxPayloadBytes: config.maxIngestBodyBytes,
    },
    log,
    presence,
    commands,
  );
  server.registerMetrics(registry);
  const ports: number[] = [];
  try {
    for (const [listening, tls] of [
      [port, undefined],
      [tlsPort, config.tls],
    ] as const) {
      if (listening === 0) continue;
      const bound = await server.listen({ host: config.host, port: listening, tls });
      log.info('mqtt listening', { host: config.host, port: bound, tls: tls !== undefined });
      ports.push(bound);
    }
  } catch (error) {
    await server.stop(0);
    throw error;
  }
  return { server, ports };
}

/** web/dist: beside src/ (tsx) and dist/ (compiled) alike. */
const CONSOLE_DIR = fileURLToPath(new URL('../web/dist', import.meta.url));

/**
 * The API's routes with the web console beside them, on the main port: the
 * console answers what no API route does, except under the API's own first
 * path segments (an unknown API path stays the API's 404), and shares GET /
 * with the API's root by the Accept header.
 */
function withConsole(apiRoutes: Route[], settings: ConsoleSettings, log: Logger): Route[] {
  const site = loadStaticSite(CONSOLE_DIR, settings);
  if (!site) {
    log.warn('the web console is not built: run `npm run build:web` to serve it at /', { dir: CONSOLE_DIR });
    return apiRoutes;
  }
  const prefixes = [...new Set(apiRoutes.map((route) => `/${route.path.split('/')[1]}`))].filter(
    (prefix) => prefix !== '/',
  );
  return [
    ...apiRoutes.map((route) =>
      route.method === 'get' && route.path === '/' ? sharedWithConsole(route, site) : route,
    ),
    staticSiteRoute(site, prefixes, unmatchedRoute(apiRoutes)),
  ];
}

/** `log`: the server's one logger, built from the configuration (LOG_LEVEL, LOG_FORMAT) and handed to each part. */
export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  const uws = loadUws(log); // before anything else: no point starting without it
  const jpeg = jpegDecoder(config.jpegDecoder); // nor without the JPEG decoder JPEG_DECODER pins
  const cleanups: Array<() => Promise<void>> = [];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn().catch((error) => log.error('shutdown step failed', { error }));
  };

  try {
    const database = await openDatabase(config, 'server', log);
    cleanups.push(() => database.close());
    await bootstrap(database.sql, config, log);

    const keys = new InferenceKeyCache(database.sql, log);
    await keys.start();
    cleanups.push(() => keys.stop());

    const metrics = createServerMetrics();
    if (jpeg.reason)
      log.warn('JPEG images are decoded by sharp, about twice as slow as libturbojpeg', { reason: jpeg.reason });
    else log.info('JPEG decoder', { decoder: jpeg.decoder });
    const engine = new InferenceEngine(engineSettings(config), log, (versionId) => ({
      batch: (size) => metrics.inferenceBatchSize.observe({ model_version: versionId }, size),
    }));
    cleanups.push(() => engine.close());
    // Before the inference service, which reports version statuses under its id, and the
    // devices' connections (presence), recorded under it too: a rejoin writes both again.
    const replica = new Replica(
      database.sql,
      () => {
        presence.recordAgain();
        inference.republishStatuses();
      },
      log,
    );
    await replica.start();
    cleanups.push(() => replica.stop());
    const presence = new DevicePresence(database.sql, replica.id, log);
    // Its last removals written before the replica's row (and the rows with it) goes.
    cleanups.push(() => presence.settled());
    const modelFiles = new ModelFiles(createModelStore(config.modelStore, database.sql), config.dataDir, log);
    const versionRegistry = new DatabaseVersionRegistry(database.sql);
    const inference = new InferenceService(
      versionRegistry,
      engine,
      modelFiles,
      {
        loading: config.modelLoading,
        isolation: config.modelIsolation,
        validation: modelValidationSettings(config),
        replicaId: replica.id,
      },
      metrics,
      log,
    );
    await inference.start();
    cleanups.push(() => inference.stop());
    // How the Open Inference Protocol addresses models: by name, in memory.
    const modelNames = new ModelNameIndex(database.sql, versionRegistry, log);
    await modelNames.start();
    cleanups.push(() => modelNames.stop());

    // Before any rule is saved or webhook sent: their secrets are sealed with it.
    const secrets = new Secrets(await loadSecretsKey(config.secretsKey, config.dataDir));
    const sealed = await sealStoredWebhookSecrets(database.sql, secrets);
    if (sealed > 0) log.info('sealed webhook secrets stored in plain text', { rows: sealed });
    const tokens = await TokenService.create(config.jwtSecret, config.dataDir, config.jwtTtlSeconds);
    if (config.smtpUrl) {
      const sender = new OutboxSender(database.sql, smtpTransport(config.smtpUrl, config.mailFrom), secrets, log);
      await sender.start();
      cleanups.push(() => sender.stop());
    }
    // The domain services, each built once here; the routes, the rules engine
    // and ingestion reach the database through them.
    const events = new EventService(database.sql);
    const eventTail = new EventTail(database.sql, events, config.eventStreams, log);
    cleanups.push(async () => eventTail.stop());
    // Cameras' frames are kept where models' files are: the database, or the bucket.
    const keptFrames = new KeptFrames(
      database.sql,
      config.modelStore.kind === 's3' ? new FrameBucket(config.modelStore) : undefined,
      {
        quotaBytes: config.keptFramesMaxBytes,
        accountQuotaBytes: config.keptFramesAccountMaxBytes,
        totalQuotaBytes: config.keptFramesTotalMaxBytes,
        retentionDays: config.eventRetentionDays,
      },
      log,
    );
    await keptFrames.start();
    cleanups.push(() => keptFrames.stop());
    const platform: PlatformServices = {
      accounts: new AccountService(database.sql, tokens, secrets, { publicUrl: config.publicUrl }, keptFrames),
      channels: new ChannelService(database.sql),
      channelKeys: new ChannelKeyService(database.sql),
      schemas: new SchemaService(database.sql),
      projects: new ProjectService(database.sql),
      gateways: new GatewayService(database.sql),
      devices: new DeviceService(database.sql),
      vision: new VisionService(
        database.sql,
        (versionId, organizationId) => inference.visible(versionId, organizationId) !== undefined,
        { secrets, filesDir: config.streamFilesDir, perOrganization: config.streamsPerOrganization },
      ),
      keptFrames,
      landmarks: new LandmarkService(database.sql),
      rules: new RuleService(database.sql, secrets, { webhookAllowList: parseAllowList(config.webhookAllowedHosts) }),
      ruleDeliveries: new RuleDeliveryService(database.sql),
      events,
      eventTail,
      inferenceKeys: new InferenceKeyService(database.sql, keys),
      models: new ModelService(database.sql, inference, modelFiles, config, modelNames),
    };
    const management: Endpoint[] = managementEndpoints(platform, config);
    const authenticator = createAuthenticator(database.sql, tokens);

    // What the rules remember of devices: filled by the writer's commits
    // through the engine, forgotten by the tag actions (known-devices.ts).
    const knownDevices = new KnownDevices();
    const rulesEngine = new RulesEngine(
      database.sql,
      platform.rules,
      { evaluationMsPerSecond: config.ruleEvaluationMsPerSecond },
      log,
      knownDevices,
    );
    await rulesEngine.start();
    cleanups.push(() => rulesEngine.stop());
    const actions = new ActionRunner(
      database.sql,
      outboxSms,
      {
        baseBackoffMs: config.actionRetryBaseMs,
        secrets,
        onDevicesChanged: (ids) => knownDevices.changed(ids),
        webhookAllowList: parseAllowList(config.webhookAllowedHosts),
        onFailure: (code) => metrics.errors.count(code),
      },
      log,
    );
    await actions.start();
    cleanups.push(() => actions.stop());
    // Commands the mqtt actions queue: expired here whether or not this server
    // listens for MQTT; sent by the one holding the device's connection.
    const commands = new DeviceCommands(database.sql, log);
    await commands.start();
    cleanups.push(() => commands.stop());
    // Before the first event, so that today's events find their day's partition.
    const partitions = new EventPartitionMaintenance(database.sql, config.eventRetentionDays, log);
    await partitions.start();
    cleanups.push(() => partitions.stop());
    const writer = new EventWriter(database.sql, rulesEngine, log);
    cleanups.push(() => writer.stop());
    // Group-commit health: events per transaction is commits ÷ events.
    metrics.registry.register(
      new Gauge(
        'ingest_commits_total',
        'transactions committed by the event writer',
        [],
        () => [{ value: writer.stats.commits }],
        'counter',
      ),
    );
    metrics.registry.register(
      new Gauge(
        'ingest_events_total',
        'events committed by the event writer (retries of stored events included)',
        [],
        () => [{ value: writer.stats.events }],
        'counter',
      ),
    );
    metrics.registry.register(
      new Gauge(
        'ingest_retried_batches_total',
        'batches evaluated from memory that PostgreSQL found stale (device changed, event retried) and were committed again the locked way',
        [],
        () => [{ value: writer.stats.retried }],
        'counter',
      ),
    );
    metrics.registry.register(
      new Gauge('event_streams_open', 'live event streams (GET /v2/events/stream) open on this server', [], () => [
        { value: eventTail.open },
      ]),
    );
    metrics.registry.register(
      new Gauge('ingest_backlog_events', 'events waiting for a commit', [], () => [{ value: writer.backlog }]),
    );
    metrics.registry.register(
      new Gauge(
        'rules_events_over_budget_total',
        "events stored with their rules left out: their organization's rule evaluation had spent its time (RULE_EVALUATION_MS_PER_SECOND)",
        [],
        () => [{ value: rulesEngine.eventsOverBudget }],
        'counter',
      ),
    );
    const ingest = new IngestService(database.sql, tokens, platform.channelKeys, writer, config, log);
    metrics.registry.register(
      new Gauge(
        'ingest_unknown_fields_total',
        'requests whose mobile events carried a field the server does not know (accepted, the field dropped), by field; at most 200 names, then "(other)"',
        ['field'],
        () => ingest.unknownFields.series(),
        'counter',
      ),
    );
    await ingest.start();
    cleanups.push(() => ingest.stop());
    // One memory budget for every tenant's buffered request body, whatever the
    // route, and one apart for bodies whose sender is not known.
    const bodyBudget = new BodyBudget(config.maxBufferedBytes, config.organizationBufferedBytes);
    const strangersBudget = new BodyBudget(config.unauthenticatedBufferedBytes, config.unauthenticatedBytesPerAddress);
    const authenticators: Authenticators = {
      user: (header) => authenticator.user(header),
      member: (user) => authenticator.member(user),
      device: (header) => ingest.authenticate(header),
      deviceNow: (header) => ingest.authenticateNow(header),
      inferenceKey: (header) => {
        const organizationId = keys.authenticate(bearerToken(header));
        if (!organizationId) throw predictErrors.unauthorized();
        return { organizationId };
      },
      metrics: metricsAccess(config.metricsToken),
    };
    const admission = new PredictAdmission(
      inference,
      bodyBudget,
      {
        organizationRequests: config.organizationQueueSize,
        places: config.queueSize,
        waitingRoom: config.queueWaitingRoom,
        holdMs: config.queueHoldMs,
      },
      metrics.registry,
    );
    const frames = new FrameIngest(
      database.sql,
      ingest,
      writer,
      platform.vision,
      admission,
      keptFrames,
      config.maxImageBytes,
      new CameraTracks(),
    );
    // Cameras that stream: this replica reads its part of them (leased in the database), and stops them first on shutdown.
    const streams = new StreamSupervisor(
      database.sql,
      replica.id,
      secrets,
      {
        admission,
        writer,
        source: {
          ffmpegPath: config.ffmpegPath,
          filesDir: config.streamFilesDir,
          allow: parseAllowList(config.streamAllowedHosts),
        },
        log,
        dwellMarks: (organizationId, channelId) => rulesEngine.dwellMarks(organizationId, channelId),
        // The objects a stream's previous reading left open, up to 10 minutes back (a camera's tracker's idle time).
        openObjects: (organizationId, deviceId) => openObjectEvents(database.sql, organizationId, deviceId, 600),
      },
      log,
    );
    streams.registerMetrics(metrics.registry);
    streams.start();
    management.push(...cameraStreamEndpoints({ streams, vision: platform.vision }));
    cleanups.push(() => streams.stop());
    // Broker mode: this replica subscribes to the devices' messages on the operator's broker (started below).
    const brokerConfig = config.mqtt.broker;
    const broker = brokerConfig
      ? new BrokerSubscriber(ingest, { ...brokerConfig, maxPayloadBytes: config.maxIngestBodyBytes }, log)
      : undefined;
    broker?.registerMetrics(metrics.registry);
    const hooks = new MqttHooks(
      ingest,
      brokerConfig?.username === undefined
        ? undefined
        : { username: brokerConfig.username, password: brokerConfig.password, shareGroup: brokerConfig.shareGroup },
    );
    const ingestion = [
      ...ingestEndpoints({ ingest, reads: new DeviceReadModel(database.sql), maxBodyBytes: config.maxIngestBodyBytes }),
      ...frameEndpoints({ frames, maxImageBytes: config.maxImageBytes }),
      ...mqttHookEndpoints({ hooks, secret: config.mqtt.authHookSecret }),
    ];
    const health = healthEndpoints({
      readiness: new ReadinessCheck(database.sql, inference, broker),
      registry: metrics.registry,
      jpegDecoder: jpeg.decoder,
    });
    const predict = predictEndpoint({ admission, maxImageBytes: config.maxImageBytes });
    // The Open Inference Protocol: one service behind its front ends, on predict's admission.
    const oip = new OipCore({
      versions: inference,
      admission,
      names: modelNames,
      organizationOf: (key) => keys.authenticate(key),
      defaultMaxBatchSize: config.batching.maxBatchSize,
      extensions: ['binary_tensor_data', 'parameters'],
    });
    const openApi = JSON.stringify(buildOpenApi([predict, ...management, ...ingestion, ...health]));
    const routes = (endpoints: Endpoint[]): Route[] =>
      endpoints.flatMap((endpoint) =>
        endpointRoutes(endpoint, authenticators, {
          budget: bodyBudget,
          strangers: strangersBudget,
          holdMs: config.queueHoldMs,
        }),
      );

    const inFlight = new InFlight();
    // Freed memory back to the system once the server goes quiet (lib/idle-trim.ts).
    const stopTrimming = trimWhenIdle({
      answered: () => inFlight.answered,
      inFlight: () => inFlight.size,
      trim: () => native.trimMemory(),
      idleMs: 10_000,
    });
    cleanups.push(async () => stopTrimming());
    const main: Route[] = [
      ...routes([...health, predict, ...management]),
      { method: 'get', path: '/openapi.json', handler: (_req, reply) => reply.send(200, openApi) },
    ];
    // The ingestion API shares the main port unless INGRESS_PORT gives it its own.
    const mainRoutes = config.ingressPort === undefined ? [...main, ...routes(ingestion)] : main;
    const listeners: Listener[] = [
      {
        name: 'listening',
        port: config.port,
        routes: withConsole(mainRoutes, { tileUrl: config.mapTileUrl ?? '' }, log),
      },
      ...(config.ingressPort === undefined
        ? []
        : [{ name: 'ingestion listening', port: config.ingressPort, routes: routes([...ingestion, ...health]) }]),
      ...(config.oip.httpPort === 0
        ? []
        : [
            {
              name: OIP_REST_LISTENER,
              port: config.oip.httpPort,
              routes: oipRoutes({
                service: oip,
                budget: bodyBudget,
                strangers: strangersBudget,
                holdMs: config.queueHoldMs,
                maxBodyBytes: oipBodyLimit(config.maxImageBytes),
              }),
              errorBody: oipErrorBody,
            },
          ]),
    ];
    const ctx: HttpContext = {
      log,
      metrics,
      inFlight,
      trustedProxies: config.trustedProxies,
      accessLog: config.accessLog,
      cors: CorsPolicy.from(config.corsOrigins),
      uploadRate: new UploadRateWatch(config.minUploadRate),
      responseValidation: config.responseValidation,
    };
    const server = new HttpServer(uws, ctx);
    const ports: number[] = [];
    for (const listener of listeners) ports.push(await listen(server, config, listener, log));
    const port = ports[0]!;
    // The protocol's gRPC front end, on the same OipCore as its REST one: started after the HTTP
    // listeners, so that a server that cannot take its HTTP ports never holds a gRPC one.
    const grpc =
      config.oip.grpcPort === 0
        ? undefined
        : new OipGrpcServer(oip, {
            host: config.host,
            port: config.oip.grpcPort,
            tls: config.tls && { certFile: config.tls.certFile, keyFile: config.tls.keyFile },
            maxMessageBytes: oipBodyLimit(config.maxImageBytes),
            log,
          });
    let grpcPort: number | undefined;
    if (grpc) {
      cleanups.push(() => grpc.close(config.shutdownTimeoutMs));
      grpcPort = await grpc.listen();
      log.info('oip grpc listening', { host: config.host, port: grpcPort, tls: config.tls !== undefined });
    }

    const mqtt = await startMqtt(config, ingest, presence, commands, metrics.registry, log);
    // On a failed start; a stop drains it with the other front ends (below).
    if (mqtt) cleanups.push(() => mqtt.server.stop(0));
    if (broker) {
      broker.start();
      cleanups.push(() => broker.stop(0));
    }

    return {
      port,
      oipHttpPort: ports[listeners.findIndex((listener) => listener.name === OIP_REST_LISTENER)],
      oipGrpcPort: grpcPort,
      mqttPorts: mqtt?.ports ?? [],
      inference,
      database,
      stop: async () => {
        // Refuses new requests and ends the event streams, which would otherwise never finish.
        // The front ends drain at once, before the writer and the engine close: none's slow calls lengthen
        // another's wait, and MQTT's messages in flight commit and are acknowledged first.
        await Promise.all([
          server.stop(config.shutdownTimeoutMs),
          grpc?.close(config.shutdownTimeoutMs),
          mqtt?.server.stop(config.shutdownTimeoutMs),
          broker?.stop(config.shutdownTimeoutMs),
        ]);
        await cleanup();
        log.info('shutdown complete');
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
