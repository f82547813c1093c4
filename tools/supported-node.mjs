// The Node.js versions the project supports, in one place: every package.json `engines.node` (the root, each
// package, example and benchmark), the host template of create-corekit-host and tools/scaffold.mjs carry this
// exact range, and `pnpm lint:packages` fails on any other. 20.10 is the floor (Node 20 is past its end of
// life but still supported here, which keeps OpenTelemetry JS on its 2.x line: 3.x needs Node 22.15); 22 and
// 24 are the maintenance and active LTS lines.
export const supportedNodeRange = '^20.10.0 || ^22.11.0 || >=24.0.0';
