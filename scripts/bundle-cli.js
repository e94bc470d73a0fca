// The CLI as one ES module, lib/cli.bundle.js, its dependencies included (see scripts/build.js).
// It sits in lib/ beside the compiled cli.js, so src/version.ts finds package.json one level up
// (the build's staging folder, `.lib-build-<pid>`, is at the same depth).
import path from 'node:path';
import { build } from 'esbuild';

export async function bundleCli(root, outDir = path.join(root, 'lib')) {
  await build({
    entryPoints: [path.join(root, 'src', 'cli.ts')],
    outfile: path.join(outDir, 'cli.bundle.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    // A dependency written as CommonJS calls `require`, which an ES module does not have.
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
  });
}
