import { access, constants } from 'node:fs/promises';
import path from 'node:path';

/**
 * Whether an executable `name` stands in one of the folders of `pathVariable`, as a spawn from an
 * environment with that PATH would find it. The claude CLI runs `git` this way for the git status
 * block of its system prompt.
 */
export async function onPath(name: string, pathVariable: string | undefined): Promise<boolean> {
  const folders = (pathVariable ?? '').split(path.delimiter).filter((folder) => folder !== '');
  for (const folder of folders) {
    const found = await access(path.join(folder, name), constants.X_OK).then(
      () => true,
      () => false,
    );
    if (found) return true;
  }
  return false;
}
