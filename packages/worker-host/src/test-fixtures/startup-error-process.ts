// A worker host whose startup fails, run as a child process by startup-error-process.test.ts. Its code options
// come as JSON in FIXTURE_CONFIGURATION (an invalid value or a misspelled key); the module does nothing.
import { createEngineBuilder } from '@corekit/engine-core';
import { createWorkerHost } from '../index';

const configuration = JSON.parse(process.env.FIXTURE_CONFIGURATION ?? '{}') as Record<string, unknown>;
const builder = createEngineBuilder({ configuration, environment: {} });
builder.addModule({ id: 'fixture-startup', version: '1.0.0' });
void createWorkerHost(builder).run();
