/** Seeded randomness: the same seed gives the same ids, secrets and fault decisions on every run. */
export class SeededRandom {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	/** mulberry32: tiny, fast and good enough for test data (not for cryptography). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	bytes(count: number): Uint8Array {
		const out = new Uint8Array(count);
		for (let i = 0; i < count; i++) out[i] = Math.floor(this.next() * 256);
		return out;
	}

	hex(byteCount: number): string {
		return Buffer.from(this.bytes(byteCount)).toString('hex');
	}

	/** RFC 4122 version 4 layout (version nibble 4, variant 10xx), as the spec's UUIDs. */
	uuid(): string {
		const b = this.bytes(16);
		b[6] = (b[6] & 0x0f) | 0x40;
		b[8] = (b[8] & 0x3f) | 0x80;
		const h = Buffer.from(b).toString('hex');
		return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
	}
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
