// The smallest shared library glibc's loader maps: an ELF64 header, a PT_LOAD of the whole file, a
// PT_DYNAMIC with DT_SONAME (no symbols, no hash table, no relocations) and a PT_GNU_STACK that asks for
// no executable stack. dlopen takes it, and afterwards a dlopen of its soname by bare name returns it —
// what a venv's loader file must achieve for TF's dlopen("libcudnn.so.8"), proven on the real loader.
export function sharedObject(soname: string, arch: string = process.arch): Buffer {
  const machine = arch === 'arm64' ? 183 : 62; // EM_AARCH64, EM_X86_64
  const ehdr = 64;
  const ph = 56;
  const phnum = 3;
  const strOff = ehdr + phnum * ph;
  const strtab = Buffer.from(`\0${soname}\0`);
  const symOff = Math.ceil((strOff + strtab.length) / 8) * 8;
  const dynOff = symOff + 24; // one null symbol
  // DT_SONAME, DT_STRTAB, DT_SYMTAB, DT_STRSZ, DT_SYMENT, DT_NULL
  const dynamic: [number, number][] = [[14, 1], [5, strOff], [6, symOff], [10, strtab.length], [11, 24], [0, 0]];
  const size = dynOff + dynamic.length * 16;
  const b = Buffer.alloc(size);
  b.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0], 0);
  b.writeUInt16LE(3, 16); // ET_DYN
  b.writeUInt16LE(machine, 18);
  b.writeUInt32LE(1, 20);
  b.writeBigUInt64LE(BigInt(ehdr), 32); // e_phoff
  b.writeUInt16LE(ehdr, 52);
  b.writeUInt16LE(ph, 54);
  b.writeUInt16LE(phnum, 56);
  b.writeUInt16LE(64, 58);
  const phdr = (i: number, type: number, off: number, len: number, align: number) => {
    const o = ehdr + i * ph;
    b.writeUInt32LE(type, o);
    b.writeUInt32LE(6, o + 4); // PF_R | PF_W: the loader adjusts the dynamic section in place
    for (const [at, v] of [[8, off], [16, off], [24, off], [32, len], [40, len], [48, align]]) b.writeBigUInt64LE(BigInt(v), o + at);
  };
  phdr(0, 1, 0, size, 0x1000); // PT_LOAD
  phdr(1, 2, dynOff, dynamic.length * 16, 8); // PT_DYNAMIC
  phdr(2, 0x6474e551, 0, 0, 16); // PT_GNU_STACK
  strtab.copy(b, strOff);
  dynamic.forEach(([tag, value], i) => {
    b.writeBigInt64LE(BigInt(tag), dynOff + i * 16);
    b.writeBigUInt64LE(BigInt(value), dynOff + i * 16 + 8);
  });
  return b;
}
