import * as core from '@actions/core';
import { maskSecrets } from '../mask.js';

/**
 * The only way the Action raises an annotation or fails its step: the message and the title pass
 * through `maskSecrets` (src/mask.ts) first, as the comment and the summary do. A gate's reason,
 * a warning or an error message may quote what claude or an API answered, and a gateway that
 * echoes the key it was sent puts the key there; the runner masks only the values registered with
 * `core.setSecret`, not a stray `sk-ant-` token, and a self-hosted log viewer may not mask at all.
 * `__tests__/structure/annotations.test.ts` keeps every other module of src/ off `core.error`,
 * `core.warning`, `core.notice` and `core.setFailed`.
 */

/** An annotation's severity, as the workflow commands name it. */
export type AnnotationLevel = 'error' | 'warning' | 'notice';

/** Raises an annotation of `level`, its message and title masked; `file` and the lines go as given. */
export function annotate(
  level: AnnotationLevel,
  message: string,
  properties: core.AnnotationProperties = {},
): void {
  const masked: core.AnnotationProperties =
    properties.title === undefined ? properties : { ...properties, title: maskSecrets(properties.title) };
  const text = maskSecrets(message);
  switch (level) {
    case 'error':
      core.error(text, masked);
      return;
    case 'warning':
      core.warning(text, masked);
      return;
    case 'notice':
      core.notice(text, masked);
      return;
  }
}

/** Fails the step with `message` (masked): the one `core.setFailed` of the Action. */
export function failStep(message: string): void {
  core.setFailed(maskSecrets(message));
}
