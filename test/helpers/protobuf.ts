// A protobuf wire-format writer independent of the generated code, so tests
// can build messages field by field from the documented field numbers.
export class ProtoWriter {
  private out: number[] = [];

  private varint(value: number | bigint): this {
    let v = BigInt.asUintN(64, BigInt(value));
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v) byte |= 0x80;
      this.out.push(byte);
    } while (v);
    return this;
  }

  private tag(field: number, wireType: number): this {
    return this.varint((field << 3) | wireType);
  }

  int64(field: number, value: number): this {
    return this.tag(field, 0).varint(value);
  }
  int32(field: number, value: number): this {
    return this.tag(field, 0).varint(value);
  }
  bool(field: number, value: boolean): this {
    return this.tag(field, 0).varint(value ? 1 : 0);
  }
  float(field: number, value: number): this {
    const buf = Buffer.alloc(4);
    buf.writeFloatLE(value);
    this.tag(field, 5);
    this.out.push(...buf);
    return this;
  }
  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2).varint(value.length);
    this.out.push(...value);
    return this;
  }
  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}
