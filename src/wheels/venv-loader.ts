// The venv's own loader file (#39.5): a one-line .pth in the venv's site-packages that, when the venv's
// python imports tensorflow — activated or not, from a shell, cron or an IDE — first loads the wheels'
// libraries by their full paths (ctypes, RTLD_GLOBAL), so TF's later dlopen of a soname finds them loaded.
export const VENV_LOADER_PTH = 'cudawiz_wheel_loader.pth';
