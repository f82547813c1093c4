import { generateProto } from '../proto-generator';
import { notesModule } from './test-host';

/** Where the committed example proto lives, relative to the package folder. */
export const exampleProtoFile = 'proto/notes-example.proto';

/** The example proto: what generateProto gives for the notes test module. */
export function exampleProto(): string {
  const module = notesModule();
  return generateProto((module.behaviors ?? []).map((behavior) => ({ moduleId: module.id, behavior })));
}
