// `pnpm generate`: writes proto/notes-example.proto, the proto of the test-support notes module, which the
// drift test compares with what generateProto gives now. Hosts generate their own the same way:
// generateProto(engine.resolve(behaviorRuntimeKey).behaviors()).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { exampleProto, exampleProtoFile } from './test-support/example-proto';

// pnpm runs package scripts in the package folder.
const exampleProtoPath = path.resolve(process.cwd(), exampleProtoFile);

writeFileSync(exampleProtoPath, exampleProto());
console.log(`wrote ${exampleProtoPath}`);
