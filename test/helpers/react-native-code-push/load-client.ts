import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { transformWithEsbuild } from 'vite';

/**
 * Loads the JavaScript of an installed react-native-code-push package (its own files, unchanged) with a
 * stand-in for the `react-native` module: CodePush.js, package-mixins.js, request-fetch-adapter.js,
 * AlertAdapter.js and logging.js are compiled from their ES module syntax (and the JSX of the
 * `codePush()` decorator, never called here) to CommonJS, and run with a `require` that hands them the
 * stand-in for `react-native` and the package's real dependencies (the `code-push` acquisition SDK,
 * hoist-non-react-statics) for everything else. Each call gives a fresh copy, as each app process has one.
 */
export interface CodePushClient {
  sync(options?: Record<string, unknown>, status?: (s: number) => void): Promise<number>;
  checkForUpdate(deploymentKey?: string | null): Promise<(Record<string, unknown> & RemotePackage) | null>;
  notifyAppReady(): Promise<unknown>;
  getUpdateMetadata(state?: number): Promise<Record<string, unknown> | null>;
  SyncStatus: Record<string, number>;
  InstallMode: Record<string, number>;
}

export interface RemotePackage {
  label: string;
  packageHash: string;
  downloadUrl: string;
  failedInstall: boolean;
  download(): Promise<{ install(mode?: number): Promise<void> }>;
}

const FILES = [
  'CodePush.js',
  'package-mixins.js',
  'request-fetch-adapter.js',
  'AlertAdapter.js',
  'logging.js',
];
const compiled = new Map<string, Map<string, string>>();

async function compile(packageDir: string): Promise<Map<string, string>> {
  const known = compiled.get(packageDir);
  if (known) return known;
  const out = new Map<string, string>();
  for (const file of FILES) {
    const source = await readFile(join(packageDir, file), 'utf8');
    const { code } = await transformWithEsbuild(source, file, {
      loader: 'jsx',
      format: 'cjs',
      jsx: 'transform',
    });
    out.set(file, code);
  }
  compiled.set(packageDir, out);
  return out;
}

export async function loadCodePushClient(packageDir: string, reactNative: object): Promise<CodePushClient> {
  const code = await compile(packageDir);
  const outside = createRequire(join(packageDir, 'package.json'));
  const modules = new Map<string, { exports: unknown }>();
  const load = (file: string): unknown => {
    const known = modules.get(file);
    if (known) return known.exports;
    const module = { exports: {} as unknown };
    modules.set(file, module);
    const run = new Function('require', 'module', 'exports', code.get(file)!) as (
      r: (name: string) => unknown,
      m: { exports: unknown },
      e: unknown,
    ) => void;
    run(requireFor, module, module.exports);
    return module.exports;
  };
  const requireFor = (name: string): unknown => {
    if (name === 'react-native') return reactNative;
    if (name === './package.json') return outside('./package.json');
    if (name.startsWith('./')) {
      const file = name.endsWith('.js') ? name.slice(2) : `${name.slice(2)}.js`;
      if (!code.has(file)) throw new Error(`${packageDir} asks for ${name}, which is not loaded`);
      return load(file);
    }
    return outside(name);
  };
  const loaded = load('CodePush.js') as CodePushClient & { default?: CodePushClient };
  return loaded.default ?? loaded;
}
