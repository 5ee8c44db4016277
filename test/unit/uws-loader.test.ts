// Choosing the uWebSockets.js build: the order, and a message that says why
// nothing loaded. Fake packages and runtimes; the real ones in the last block.
import { describe, expect, it } from 'vitest';
import {
  currentRuntime,
  isNativeUws,
  nodeIo,
  selectUws,
  UWS_CANDIDATES,
  UwsLoadError,
  type LoaderIo,
  type Runtime,
  type UwsCandidate,
} from '../../src/http/uws-loader.js';

const fork: UwsCandidate = {
  name: 'fork',
  source: 'fork@1',
  binaryDir: '../binaries',
  minGlibc: '2.27',
  serves: 'Node 20',
};
const upstream: UwsCandidate = {
  name: 'upstream',
  source: 'upstream@2',
  binaryDir: '.',
  minGlibc: '2.38',
  serves: 'Node 22/24',
};

/** A function whose String() says [native code], as a real binding's App does. */
const nativeApp = Math.max;
const nativeBinding = () => ({ App: nativeApp, getParts: () => [] });
const jsFallback = { App: function App() {}, getParts: () => [] };

interface FakePackage {
  main: string;
  /** binary file path → what loading it does */
  binaries: Record<string, () => unknown>;
  /** what require(name) returns */
  entry?: () => unknown;
}

function fakeIo(packages: Record<string, FakePackage>): LoaderIo & { loaded: string[] } {
  const loaded: string[] = [];
  return {
    loaded,
    resolve(name) {
      const pkg = packages[name];
      if (!pkg) throw Object.assign(new Error(`Cannot find module '${name}'`), { code: 'MODULE_NOT_FOUND' });
      return pkg.main;
    },
    list(dir) {
      const files: string[] = [];
      for (const pkg of Object.values(packages))
        for (const file of Object.keys(pkg.binaries))
          if (file.startsWith(dir + '/')) files.push(file.slice(dir.length + 1));
      return files;
    },
    load(id) {
      loaded.push(id);
      for (const [name, pkg] of Object.entries(packages)) {
        if (id === name) return (pkg.entry ?? nativeBinding)();
        if (pkg.binaries[id]) return pkg.binaries[id]!();
      }
      throw new Error(`Cannot find module '${id}'`);
    },
  };
}

const glibcTooOld = () => {
  throw new Error(
    "/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found (required by /x/node_modules/upstream/uws_linux_x64_137.node)",
  );
};

const node24: Runtime = { nodeVersion: 'v24.21.0', abi: '137', platform: 'linux', arch: 'x64', glibc: '2.36' };
const node20: Runtime = { ...node24, nodeVersion: 'v20.20.0', abi: '115' };

function packages(upstreamLoad: () => unknown = nativeBinding): Record<string, FakePackage> {
  return {
    fork: {
      main: '/m/fork/src/uws.js',
      binaries: {
        '/m/fork/binaries/uws_linux_x64_93.node': nativeBinding,
        '/m/fork/binaries/uws_linux_x64_108.node': nativeBinding,
        '/m/fork/binaries/uws_linux_x64_115.node': nativeBinding,
      },
    },
    upstream: {
      main: '/m/upstream/uws.js',
      binaries: {
        '/m/upstream/uws_linux_x64_115.node': upstreamLoad,
        '/m/upstream/uws_linux_x64_127.node': upstreamLoad,
        '/m/upstream/uws_linux_x64_137.node': upstreamLoad,
      },
    },
  };
}

describe('selectUws', () => {
  it('takes the first candidate with a binary for the ABI that loads', () => {
    const io = fakeIo(packages());
    const chosen = selectUws([fork, upstream], node20, io);
    expect(chosen.candidate.name).toBe('fork');
    expect(io.loaded).toEqual(['/m/fork/binaries/uws_linux_x64_115.node', 'fork']);
  });

  it('goes on to the next candidate when the first has no binary for the ABI', () => {
    const io = fakeIo(packages());
    const chosen = selectUws([fork, upstream], node24, io);
    expect(chosen.candidate.name).toBe('upstream');
    expect(chosen.attempts[0]!.error).toMatch(/no binary for ABI 137/);
    expect(io.loaded).not.toContain('fork'); // its entry would fall back to the JS shim
  });

  it('says why each candidate failed, the runtime, and what works', () => {
    const io = fakeIo(packages(glibcTooOld));
    let error: unknown;
    try {
      selectUws([fork, upstream], node24, io);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UwsLoadError);
    const message = (error as Error).message;
    expect(message).toMatch(/Node v24\.21\.0 \(ABI 137\), linux-x64, glibc 2\.36/);
    expect(message).toMatch(/1\. fork \(fork@1; Node 20\): no binary for ABI 137 .*it has ABI 93, 108, 115/);
    expect(message).toMatch(
      /2\. upstream \(upstream@2; Node 22\/24\): uws_linux_x64_137\.node did not load: .*GLIBC_2\.38' not found/,
    );
    expect(message).toMatch(/needs glibc >= 2\.38; this system has 2\.36/);
    expect(message).toMatch(/Node 22 and 24 on Linux x64 with glibc >= 2\.38/);
    expect(message).toMatch(/Node 20 on Linux x64 with glibc >= 2\.27/);
  });

  it('names a candidate that is not installed, and a system without glibc', () => {
    const pk = packages();
    delete (pk as Record<string, unknown>).upstream;
    const musl = { ...node24, glibc: null };
    expect(() => selectUws([fork, upstream], musl, fakeIo(pk))).toThrow(
      /no glibc \(musl\?\)[\s\S]*2\. upstream .*not installed/,
    );
  });

  it('refuses a binding that is the JS fallback', () => {
    const pk = packages();
    pk.fork!.entry = () => jsFallback;
    expect(() => selectUws([fork], node20, fakeIo(pk))).toThrow(/fell back to the JS implementation/);
    pk.fork!.binaries['/m/fork/binaries/uws_linux_x64_115.node'] = () => jsFallback;
    expect(() => selectUws([fork], node20, fakeIo(pk))).toThrow(/loaded but is not the native/);
  });

  it('compares glibc versions numerically', () => {
    const io = fakeIo(packages(glibcTooOld));
    const newer = { ...node24, glibc: '2.4' }; // 2.4 < 2.38
    expect(() => selectUws([upstream], newer, io)).toThrow(/this system has 2\.4\)/);
    const io2 = fakeIo(packages(glibcTooOld));
    expect(() => selectUws([upstream], { ...node24, glibc: '2.41' }, io2)).toThrow(/GLIBC_2\.38' not found \(required/);
  });
});

describe('the real candidates on this machine', () => {
  it('load a native build on Node 20, or explain why not on other Node versions', () => {
    const runtime = currentRuntime();
    expect(runtime.abi).toBe(process.versions.modules);
    if (runtime.platform === 'linux' && runtime.arch === 'x64' && runtime.abi === '115') {
      const { uws, candidate } = selectUws(UWS_CANDIDATES, runtime, nodeIo());
      expect(isNativeUws(uws)).toBe(true);
      expect(candidate.name).toBe('uWebSockets.js'); // the fork comes first where it has a binary
    } else {
      try {
        selectUws(UWS_CANDIDATES, runtime, nodeIo());
      } catch (error) {
        expect(error).toBeInstanceOf(UwsLoadError);
      }
    }
  });
});
