// @corekit/release-roundtrip is a private test package: its test is the registry round trip (README.md).
export { consumerPackages, type PackageManager } from './consumer-project';
