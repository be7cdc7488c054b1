// Which index pip fetches the pip route's wheels from, read from real files in a temp home the way
// pip reads them: PIP_CONFIG_FILE, global, user (legacy, then XDG), the venv's own, then PIP_INDEX_URL.
import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseIni, pipConfigFiles, pipIndexInUse, PYPI_SIMPLE } from '../../src/fetch/pip-index.js';
import { tempDir } from '../helpers/tmp.js';
import { realHost } from '../../src/host.js';
import { runCli } from '../helpers/cli.js';
import { pipLaptop } from '../helpers/pip-laptop.js';

const read = (root: string) => (file: string) => {
  try {
    return readFileSync(file.startsWith(root) ? file : path.join(root, file), 'utf8');
  } catch {
    return undefined;
  }
};

describe('the pip index in use', () => {
  it("is PyPI when nothing says otherwise, a user's pip.conf mirror when one does, the venv's over it, and PIP_INDEX_URL over all", async () => {
    const root = await tempDir('cw-pipconf-');
    const home = path.join(root, 'home');
    const venv = path.join(root, 'venv');
    const env = { HOME: home, XDG_CONFIG_DIRS: path.join(root, 'etc/xdg') };
    expect(pipIndexInUse({ os: 'linux', env, home, venvDir: venv, read: read(root) })).toEqual({ url: PYPI_SIMPLE, from: 'default', extra: [] });

    const user = path.join(home, '.config/pip/pip.conf');
    await mkdir(path.dirname(user), { recursive: true });
    await writeFile(user, '# a mirror near me\n[global]\nindex-url = https://pypi.tuna.tsinghua.edu.cn/simple\ntimeout = 60\n');
    expect(pipIndexInUse({ os: 'linux', env, home, venvDir: venv, read: read(root) })).toEqual({ url: 'https://pypi.tuna.tsinghua.edu.cn/simple', from: 'file', file: user, extra: [] });

    await mkdir(venv, { recursive: true });
    await writeFile(path.join(venv, 'pip.conf'), '[install]\nindex_url: https://mirrors.aliyun.com/pypi/simple/\nextra-index-url =\n    https://a.example/simple\n    https://b.example/simple\n');
    expect(pipIndexInUse({ os: 'linux', env, home, venvDir: venv, read: read(root) })).toMatchObject({ url: 'https://mirrors.aliyun.com/pypi/simple/', from: 'file', extra: ['https://a.example/simple', 'https://b.example/simple'] });

    expect(pipIndexInUse({ os: 'linux', env: { ...env, PIP_INDEX_URL: 'https://corp.example/simple' }, home, venvDir: venv, read: read(root) })).toMatchObject({ url: 'https://corp.example/simple', from: 'env' });
    // PIP_CONFIG_FILE=/dev/null: no file counts.
    expect(pipIndexInUse({ os: 'linux', env: { ...env, PIP_CONFIG_FILE: '/dev/null' }, home, venvDir: venv, read: read(root) }).from).toBe('default');
  });

  it("knows pip's Windows files: ProgramData, %HOME%\\pip, %APPDATA%\\pip, the venv's pip.ini", () => {
    expect(pipConfigFiles('windows', { APPDATA: 'C:\\Users\\a\\AppData\\Roaming', ProgramData: 'C:\\ProgramData' }, 'C:\\Users\\a', 'C:\\tf\\.venv')).toEqual([
      'C:\\ProgramData\\pip\\pip.ini',
      'C:\\Users\\a\\pip\\pip.ini',
      'C:\\Users\\a\\AppData\\Roaming\\pip\\pip.ini',
      'C:\\tf\\.venv\\pip.ini',
    ]);
    expect(parseIni('[global]\nINDEX_URL=x\n').get('global')?.get('index-url')).toBe('x');
  });

  it("the pip route's plan says which index its wheels come from: PyPI, a user's pip.conf, PIP_INDEX_URL", async () => {
    const l = await pipLaptop();
    const plan = async (env: Record<string, string> = {}) => {
      const r = await runCli(['install', '--tf', '2.16.1', '--route', 'pip', '--venv', path.join(l.home, 'venv'), '--dry-run', '--json', ...l.globals], { host: { ...realHost({ ...l.env, ...env }), home: l.home } });
      const steps = r.stdout.trim().split('\n').map((x) => JSON.parse(x)).find((e) => e.type === 'plan')?.steps as { id: string; reason?: string }[];
      return steps.find((s) => s.id === 'pip-install')?.reason ?? r.stdout + r.stderr;
    };
    expect(await plan()).toContain("wheels from https://pypi.org/simple (pip's default");
    const conf = path.join(l.home, '.config/pip/pip.conf');
    await mkdir(path.dirname(conf), { recursive: true });
    await writeFile(conf, '[global]\nindex-url = https://pypi.tuna.tsinghua.edu.cn/simple\n');
    expect(await plan()).toContain(`wheels from https://pypi.tuna.tsinghua.edu.cn/simple (${conf})`);
    expect(await plan({ PIP_INDEX_URL: 'https://corp.example/simple' })).toContain('wheels from https://corp.example/simple (PIP_INDEX_URL)');
  });
});
