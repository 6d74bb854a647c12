import type { MediaRef } from '../../../../src/sync/protocol/wire';
import type { TargetMapping } from '../target-adapter';
import type { Node } from './features';

/**
 * The images a node sends, one rule for every adapter: its media whose content type is an
 * image and whose purpose `mapping.imagePurposes` names (every purpose when it names none),
 * by position, each file (content hash) once.
 */
export function imagesFor(node: Node, mapping: TargetMapping): MediaRef[] {
  const seen = new Set<string>();
  return [...node.media]
    .filter((ref) => ref.contentType.startsWith('image/'))
    .filter((ref) => mapping.imagePurposes.length === 0 || mapping.imagePurposes.includes(ref.purpose))
    .sort((a, b) => a.position - b.position)
    .filter((ref) => !seen.has(ref.sha256) && seen.add(ref.sha256));
}
