/** Files of the kinds a lecture takes (and one it does not), small and made here, for the resources' tests. */

/** `size` bytes that are not text (every byte value, NUL included), the same each time. */
function binaryPayload(size: number): Buffer {
  const payload = Buffer.alloc(size);
  for (let i = 0; i < size; i++) payload[i] = (i * 31 + 7) & 0xff;
  return payload;
}

/** A PDF as content sniffing sees one: its header, then `size` bytes of body, then its end marker. */
export const pdfFile = (size = 20_000) =>
  Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), binaryPayload(size), Buffer.from('\n%%EOF\n')]);

/** A Windows program: "MZ", a DOS stub and a PE header, as a renamed .exe starts. */
export function exeFile(size = 20_000): Buffer {
  const head = Buffer.alloc(0x100);
  head.write('MZ', 0, 'latin1');
  head.writeUInt32LE(0x80, 0x3c);
  head.write('PE\0\0', 0x80, 'latin1');
  head.writeUInt16LE(0x014c, 0x84);
  return Buffer.concat([head, binaryPayload(size)]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => (bytes.reduce((c, byte) => CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8), 0xffffffff) ^ 0xffffffff) >>> 0;

/** A ZIP archive holding one file, stored without compression. */
export function zipFile(name = 'exercise.txt', content = Buffer.from('Sum the column, then check the total.\n')): Buffer {
  const fileName = Buffer.from(name);
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralStart = local.length + fileName.length + content.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralStart, 16);
  return Buffer.concat([local, fileName, content, central, fileName, end]);
}
