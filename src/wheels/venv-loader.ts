// The venv's own loader file (#39.5): a .pth in the venv's site-packages that, when the venv's python
// imports tensorflow — activated or not, from a shell, cron or an IDE — first loads the wheels'
// libraries by their full paths (ctypes, RTLD_GLOBAL). TF's later dlopen("libcudnn.so.8") then finds the
// object already loaded under that soname (glibc matches a loaded object's DT_SONAME before it searches
// any path), which is how torch loads the same nvidia-* wheels (torch/__init__.py, _preload_cuda_deps).
// Why not the others: LD_LIBRARY_PATH set inside python is read by the loader only at process start; a
// wrapper around bin/python or a re-exec changes what sys.executable and argv are; sitecustomize is one
// file per interpreter that other tools also write. A .pth is Python's own per-environment hook, read by
// `site` at start-up (the `import` lines of .pth files: docs.python.org/3/library/site.html), and it goes
// with one file. Nothing loads until tensorflow is imported, so pip and other scripts pay nothing; a
// library that cannot load is left to TF's own message.
import path from 'node:path';
import { CUDAWIZ_FILE_MARK } from '../platform.js';

export const VENV_LOADER_PTH = 'cudawiz_wheel_loader.pth';

/** Where the loader file goes: the site-packages the wheels are in (their lib folders are site/nvidia/<part>/lib). */
export function venvLoaderFile(wheelLibDir: string): string {
  return path.join(path.dirname(path.dirname(path.dirname(wheelLibDir))), VENV_LOADER_PTH);
}

/** The finder's code, run once by `site`: it waits in sys.meta_path for the first import of tensorflow. */
const PRELOAD = `def _cudawiz_wheel_loader(dirs):
    import sys
    class Preload:
        cudawiz_dirs = dirs
        @classmethod
        def find_spec(cls, name, path=None, target=None):
            if name.partition(".")[0] != "tensorflow":
                return None
            try:
                sys.meta_path.remove(cls)
            except ValueError:
                pass
            try:
                cls.load()
            except Exception:
                pass
            return None
        @staticmethod
        def load():
            import ctypes, os
            files, seen = [], set()
            for d in dirs:
                try:
                    names = sorted(os.listdir(d))
                except OSError:
                    continue
                for n in names:
                    real = os.path.realpath(os.path.join(d, n))
                    if ".so." in n and real not in seen:
                        seen.add(real)
                        files.append(os.path.join(d, n))
            while files:
                left = []
                for f in files:
                    try:
                        ctypes.CDLL(f, mode=ctypes.RTLD_GLOBAL)
                    except OSError:
                        left.append(f)
                if len(left) == len(files):
                    break
                files = left
    sys.meta_path.insert(0, Preload)
`;

/**
 * The file's content: cudawiz's mark, then one `import` line (a .pth runs only lines that start with
 * `import`), which hands the finder's code and the folders to exec. The folders are the wheels' own, in
 * the order the activate block puts them first.
 */
export function venvLoaderContent(dirs: readonly string[]): string {
  const code = `${PRELOAD}_cudawiz_wheel_loader(${JSON.stringify(dirs)})\n`;
  return `${CUDAWIZ_FILE_MARK}: TensorFlow's pip-installed CUDA libraries, loaded when the venv's python imports tensorflow (delete this file to undo)\nimport builtins; builtins.exec(${JSON.stringify(code)})\n`;
}
