// Just enough of the PE/COFF format to check a Windows executable: its headers, and a named resource
// in .rsrc (where postject puts a single executable's blob) — read from the bytes, as Windows would.
export interface PeInfo {
  machine: number;
  /** 0x20b for PE32+ (64-bit). */
  magic: number;
  subsystem: number;
  sections: { name: string; virtualAddress: number; virtualSize: number; rawOffset: number; rawSize: number }[];
}

export function readPe(buf: Buffer): PeInfo {
  if (buf.toString('latin1', 0, 2) !== 'MZ') throw new Error('no MZ header');
  const pe = buf.readUInt32LE(0x3c);
  if (buf.toString('latin1', pe, pe + 4) !== 'PE\0\0') throw new Error('no PE signature');
  const coff = pe + 4;
  const sectionCount = buf.readUInt16LE(coff + 2);
  const optionalSize = buf.readUInt16LE(coff + 16);
  const optional = coff + 20;
  const sections = [];
  for (let i = 0; i < sectionCount; i++) {
    const s = optional + optionalSize + i * 40;
    sections.push({
      name: buf.toString('latin1', s, s + 8).replace(/\0+$/, ''),
      virtualSize: buf.readUInt32LE(s + 8),
      virtualAddress: buf.readUInt32LE(s + 12),
      rawSize: buf.readUInt32LE(s + 16),
      rawOffset: buf.readUInt32LE(s + 20),
    });
  }
  return { machine: buf.readUInt16LE(coff), magic: buf.readUInt16LE(optional), subsystem: buf.readUInt16LE(optional + 68), sections };
}

const RT_RCDATA = 10;

/** The bytes of the RT_RCDATA resource called `name`, or undefined. */
export function findRcData(buf: Buffer, name: string): Buffer | undefined {
  const info = readPe(buf);
  const rsrc = info.sections.find((s) => s.name === '.rsrc');
  if (!rsrc) return undefined;
  const at = (rva: number) => {
    const s = info.sections.find((x) => rva >= x.virtualAddress && rva < x.virtualAddress + Math.max(x.virtualSize, x.rawSize));
    if (!s) throw new Error(`RVA ${rva} is in no section`);
    return s.rawOffset + (rva - s.virtualAddress);
  };
  const base = rsrc.rawOffset;
  // One directory: [named entries][id entries], each 8 bytes after a 16-byte header.
  const entries = (dir: number) => {
    const count = buf.readUInt16LE(dir + 12) + buf.readUInt16LE(dir + 14);
    return Array.from({ length: count }, (_, i) => {
      const e = dir + 16 + i * 8;
      const nameField = buf.readUInt32LE(e);
      const target = buf.readUInt32LE(e + 4);
      let label: string | number = nameField;
      if (nameField & 0x80000000) {
        const str = base + (nameField & 0x7fffffff);
        label = buf.toString('utf16le', str + 2, str + 2 + buf.readUInt16LE(str) * 2);
      }
      return { label, isDir: Boolean(target & 0x80000000), offset: base + (target & 0x7fffffff) };
    });
  };
  const type = entries(base).find((e) => e.label === RT_RCDATA && e.isDir);
  const named = type && entries(type.offset).find((e) => e.label === name && e.isDir);
  const lang = named && entries(named.offset)[0];
  if (!lang || lang.isDir) return undefined;
  const dataRva = buf.readUInt32LE(lang.offset);
  const size = buf.readUInt32LE(lang.offset + 4);
  const start = at(dataRva);
  return buf.subarray(start, start + size);
}
