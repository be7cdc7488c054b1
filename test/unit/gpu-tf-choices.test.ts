// The version picker's list (tfChoicesFor) and its default (defaultTfChoice): what a user on this OS,
// with this GPU, is offered, what is blocked and why, and what is preselected.
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { defaultTfChoice, tfChoicesFor } from '../../src/catalog/tf-choices.js';
import { majorMinor } from '../../src/version.js';

const catalog = builtinCatalog();
const line = (choices: ReturnType<typeof tfChoicesFor>, v: string) => choices.find((c) => majorMinor(c.version) === v)!;

describe('tfChoicesFor', () => {
  it('Linux without a GPU: one entry per minor line, newest first, with CUDA, cuDNN and the Python range', () => {
    const choices = tfChoicesFor(catalog, 'linux');
    const lines = choices.map((c) => majorMinor(c.version));
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines.slice(0, 3)).toEqual(['2.21', '2.20', '2.19']);
    expect(lines).toContain('1.15');
    expect(line(choices, '2.3')).toEqual({ version: '2.3.0', cuda: '10.1', cudnn: expect.stringMatching(/^7\.6/), python: '3.5–3.8' });
    expect(line(choices, '2.16').version).toBe('2.16.1');
    expect(choices.every((c) => !c.blocked && !c.note)).toBe(true);
  });

  it('Windows: lines after 2.10 are listed but blocked with the WSL2 route; 2.10 and older are offered', () => {
    const choices = tfChoicesFor(catalog, 'windows');
    expect(choices[0].version).toBe('2.21.0');
    expect(line(choices, '2.15').blocked).toBe(
      'no native Windows GPU support after 2.10: use WSL2 (cudawiz requirements --tf 2.15 --os linux) or TF 2.10',
    );
    expect(line(choices, '2.10')).toMatchObject({ version: '2.10.0', cuda: '11.2', python: '3.7–3.10' });
    expect(line(choices, '2.10').blocked).toBeUndefined();
    expect(choices.filter((c) => c.blocked).map((c) => majorMinor(c.version))).toEqual(['2.21', '2.20', '2.19', '2.18', '2.17', '2.16', '2.15', '2.14', '2.13', '2.12', '2.11']);
  });

  it('a GTX 970 (5.2) on Linux: 2.17 and newer are blocked with the reason (sm_50 left the build 2024-02-26); 2.16 and older run natively', () => {
    const choices = tfChoicesFor(catalog, 'linux', { computeCapability: '5.2' });
    expect(line(choices, '2.18').blocked).toContain('its oldest machine code is for 6.0');
    expect(line(choices, '2.17').blocked).toContain('its oldest machine code is for 6.0');
    expect(line(choices, '2.16')).toMatchObject({ verdict: 'native' });
    expect(line(choices, '2.16').blocked).toBeUndefined();
  });

  it('an RTX 4090 (8.9) on Linux: TF 2.3 is offered with a JIT note, not blocked', () => {
    const c = line(tfChoicesFor(catalog, 'linux', { computeCapability: '8.9' }), '2.3');
    expect(c.blocked).toBeUndefined();
    expect(c.verdict).toBe('ptx-jit');
    expect(c.note).toContain('CUDA_CACHE_MAXSIZE=2147483648');
  });

  it('a K80 (3.7): the CUDA 12 lines are blocked because CUDA 12 dropped Kepler', () => {
    const choices = tfChoicesFor(catalog, 'linux', { computeCapability: '3.7' });
    expect(line(choices, '2.15').blocked).toBe('CUDA 12.2 needs compute capability 5.0 or newer; this GPU is 3.7.');
    expect(line(choices, '2.14').verdict).toBe('native');
  });
});

describe('defaultTfChoice', () => {
  it('no GPU, nothing installed: the newest line', () => {
    expect(defaultTfChoice(tfChoicesFor(catalog, 'linux'))?.version).toBe('2.21.0');
  });

  it('on Windows: the newest native Windows GPU line, 2.10', () => {
    expect(defaultTfChoice(tfChoicesFor(catalog, 'windows'))?.version).toBe('2.10.0');
  });

  it('keeps the installed TF when it can run here (2.3.1 → the 2.3 line), even through a JIT', () => {
    expect(defaultTfChoice(tfChoicesFor(catalog, 'linux', { computeCapability: '5.2' }), '2.3.1')?.version).toBe('2.3.0');
    expect(defaultTfChoice(tfChoicesFor(catalog, 'linux', { computeCapability: '8.9' }), '2.3.0')?.version).toBe('2.3.0');
  });

  it('passes over an installed TF this GPU cannot run, to the newest native line (GTX 970 with 2.18 → 2.16; K80 → 2.14)', () => {
    expect(defaultTfChoice(tfChoicesFor(catalog, 'linux', { computeCapability: '5.2' }), '2.18.0')?.version).toBe('2.16.1');
    expect(defaultTfChoice(tfChoicesFor(catalog, 'linux', { computeCapability: '3.7' }))?.version).toBe('2.14.0');
  });

  it('an installed TF blocked on native Windows is passed over too (2.15 → 2.10)', () => {
    expect(defaultTfChoice(tfChoicesFor(catalog, 'windows', { computeCapability: '7.5' }), '2.15.0')?.version).toBe('2.10.0');
  });

  it('an H100 (9.0) prefers the newest native line; an RTX 5090 (12.0), native nowhere and failing on 2.16+, gets the newest it can JIT', () => {
    expect(defaultTfChoice(tfChoicesFor(catalog, 'linux', { computeCapability: '9.0' }))?.version).toBe('2.21.0');
    expect(defaultTfChoice(tfChoicesFor(catalog, 'windows', { computeCapability: '9.0' }))?.version).toBe('2.10.0');
    expect(defaultTfChoice(tfChoicesFor(catalog, 'linux', { computeCapability: '12.0' }))?.version).toBe('2.15.0');
  });

  it('a Fermi GPU (2.0): every line with known builds is blocked; what is left is a line whose builds the catalog does not know, said in its note', () => {
    const choices = tfChoicesFor(catalog, 'linux', { computeCapability: '2.0' });
    expect(line(choices, '1.15').blocked).toBe('CUDA 10.0 needs compute capability 3.0 or newer; this GPU is 2.0.');
    const d = defaultTfChoice(choices)!;
    expect(d.verdict).toBe('unknown');
    expect(d.note).toContain('does not know which GPU architectures');
  });

  it('nothing runnable → undefined', () => {
    expect(defaultTfChoice(tfChoicesFor(catalog, 'windows').filter((c) => c.blocked))).toBeUndefined();
  });
});
