// Versioned schema migrations, applied in order, each exactly once (see
// migrate.ts). Never edit a migration that has shipped: add a new one.
import { migration001 } from './migrations/001-accounts.js';
import { migration002 } from './migrations/002-platform.js';
import { migration003 } from './migrations/003-channels.js';
import { migration004 } from './migrations/004-devices.js';
import { migration005 } from './migrations/005-rules.js';
import { migration006 } from './migrations/006-ingest.js';
import { migration007 } from './migrations/007-ingest-fast-path.js';
import { migration008 } from './migrations/008-events-time-indexes.js';
import { migration009 } from './migrations/009-events-statistics.js';
import { migration010 } from './migrations/010-login-attempts.js';
import { migration011 } from './migrations/011-device-credentials.js';
import { migration012 } from './migrations/012-session-version.js';
import { migration013 } from './migrations/013-webhook-log-scrub.js';
import { migration014 } from './migrations/014-events-partitioned.js';
import { migration015 } from './migrations/015-replicas.js';
import { migration016 } from './migrations/016-rate-buckets.js';
import { migration017 } from './migrations/017-device-vision.js';
import { migration018 } from './migrations/018-kept-frames.js';
import { migration019 } from './migrations/019-model-versions-disabled.js';
import { migration020 } from './migrations/020-schemas-additional-properties.js';
import { migration021 } from './migrations/021-kept-frames-accounts.js';
import { migration022 } from './migrations/022-device-commands.js';
import { migration023 } from './migrations/023-device-connections.js';
import { migration024 } from './migrations/024-vision-lines-tracking.js';
import { migration025 } from './migrations/025-camera-streams.js';
import { migration026 } from './migrations/026-model-version-config-changes.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
  migration020,
  migration021,
  migration022,
  migration023,
  migration024,
  migration025,
  migration026,
];
