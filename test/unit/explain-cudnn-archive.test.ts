// #40 item 2: explain ends with the command that fixes a missing cuDNN, and the archive it names is the one
// the plan takes. For every TensorFlow row of the catalog, on its OS: explain's fix for that row's cuDNN
// file names exactly the archive of requirements (cudnnArchiveFor) and of the plan's routes (routeFiles),
// and the commands that get it.
import { describe, expect, it } from 'vitest';
import { routeFiles } from '../../src/routes/index.js';
import { cudnnArchiveFor } from '../../src/catalog/cudnn-choice.js';
import { builtinCatalog } from '../../src/catalog/load.js';
import { requirementsFor } from '../../src/catalog/queries.js';
import { explainLog } from '../../src/doctor/explain.js';
import type { OsName } from '../../src/platform.js';
import { loadRedistCatalog } from '../../src/redist/catalog.js';
import { major } from '../../src/version.js';

const catalog = builtinCatalog();
const redist = loadRedistCatalog();
const cudnnLine = (os: OsName, cudnnMajor: number) =>
  os === 'windows'
    ? `W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'cudnn64_${cudnnMajor}.dll'; dlerror: cudnn64_${cudnnMajor}.dll not found`
    : `W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.${cudnnMajor}'; dlerror: libcudnn.so.${cudnnMajor}: cannot open shared object file: No such file or directory`;

const rows = (['linux', 'windows'] as const).flatMap((os) => catalog.tensorflow[os].map((r) => [os, r.version, r.cudnn] as const));

describe('explain names the archive the plan takes, for every catalog row', () => {
  it.each(rows)('%s TF %s (cuDNN %s)', (os, tf, cudnn) => {
    const req = requirementsFor(catalog, tf, os);
    const planned = routeFiles(catalog, redist, tf, os, 'toolkit').files.find((f) => f.kind === 'cudnn')?.file;
    expect(cudnnArchiveFor(catalog, tf, os)?.archive?.file).toBe(req.cudnnArchive?.file);
    const e = explainLog(catalog, cudnnLine(os, major(cudnn)), { os, tf });
    const finding = e.findings.find((f) => f.id === 'missing-cudnn')!;
    expect(finding.fix).toContain(`cudawiz repair --tf ${tf}`);
    expect(finding.fix).toContain(`cuDNN ${req.cudnn} for CUDA ${req.cuda}`);
    if (planned) {
      expect(req.cudnnArchive?.file).toBe(planned);
      expect(routeFiles(catalog, redist, tf, os, 'redist').files.find((f) => f.kind === 'cudnn')?.file ?? planned).toBe(planned);
      expect(finding.fix).toContain(planned);
      // The only archive file name in the fix is the planned one.
      const named = finding.fix.match(/cudnn[-_][\w.-]+\.(?:tar\.xz|tgz|zip)/g) ?? [];
      expect(new Set(named)).toEqual(new Set([planned]));
    }
  });

  it('the issue\'s case: a fuller TF 2.14 log named 8.9.7.29 while install --tf 2.14 takes 8.7.0.84 — now both say 8.7.0.84', () => {
    const log = ["TensorFlow version: 2.14.0", cudnnLine('linux', 8), "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file"].join('\n');
    const fix = explainLog(catalog, log).findings.find((f) => f.id === 'missing-cudnn')!.fix;
    expect(fix).toContain(requirementsFor(catalog, '2.14', 'linux').cudnnArchive!.file);
    expect(fix).not.toContain('8.9.7.29');
  });

  it('without a TensorFlow version it says which lines use that cuDNN major and how to name yours, and flags that it wanted one', () => {
    const e = explainLog(catalog, cudnnLine('linux', 8));
    expect(e.wantedTf).toBe(true);
    expect(e.findings[0].fix).toMatch(/^Which cuDNN 8\.x depends on your TensorFlow \(cuDNN 8 serves TensorFlow 2\.\d+–2\.\d+\): run cudawiz explain --tf YOUR_TF/);
    // The TF installed here (the command's probe) is used the same way as --tf.
    const installed = explainLog(catalog, cudnnLine('linux', 8), { installedTf: '2.12' });
    expect(installed.wantedTf).toBe(false);
    expect(installed.findings[0].fix).toContain(requirementsFor(catalog, '2.12', 'linux').cudnnArchive!.file);
  });
});
